"""Say clearly, before pytest runs, whether the browser tests will run or be skipped."""

import shutil

if shutil.which("chromium") or shutil.which("/usr/bin/chromium"):
    print("Chromium found at /usr/bin/chromium: the end-to-end browser tests will run.")
else:
    print(
        "WARNING: no Chromium on this machine: the end-to-end browser tests are SKIPPED "
        "(install it with: apt-get install chromium)."
    )
