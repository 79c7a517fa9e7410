"""The registered game: metadata, table options, bots and the factory of states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from choux.engine.base import JSON, BotFactory, Game, InvalidOptions, Option, State
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import CODEC
from choux.games.cul_de_chouette.state import CulDeChouetteState

#: targets of the generic random walks (random play drains scores with many players)
WALK_TARGETS = {4: 250, 5: 200, 6: 150, 7: 120, 8: 120}


class CulDeChouette(Game):
    """Cul de Chouette, 2 to 8 players, with the site's dice or real dice typed in."""

    name: ClassVar[str] = "cul-de-chouette"
    title: ClassVar[str] = "Cul de Chouette"
    #: "2" since 2026-12-03: a cry made too late, a right cry repeated during a Suite's race,
    #: a Chouette Velute in a challenge roll and the Civet's stake now score as
    #: `shared/rules/` decides; a record of version "1" may end otherwise under these rules
    rules_version: ClassVar[str] = "2"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    codec = CODEC
    unit_name: ClassVar[str] = "tours"
    #: a tablet in the middle of the table may play several seats: no hidden hands
    shared_screen: ClassVar[bool] = True
    bot_labels: ClassVar[Mapping[str, str]] = {
        "random": "au hasard",
        "easy": "facile",
        "medium": "moyen",
        "hard": "difficile",
    }
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "des",
            "Dés",
            "site",
            (("site", "Les dés du site"), ("reels", "De vrais dés, saisis à la main")),
        ),
        Option(
            "scribe",
            "Scribe qui saisit les vrais dés (−1 : chaque lanceur)",
            -1,
            kind="int",
            minimum=-1,
            maximum=7,
        ),
        Option("objectif", "Score à atteindre", C.TARGET, kind="int", minimum=20, maximum=C.TARGET),
        Option("bouton_bevue", "Bouton Bévue (−10) sous chaque joueur", True, kind="bool"),
        Option(
            "chante_sloubi",
            "Chante-Sloubi : places rejointes en cours de partie",
            0,
            kind="int",
            minimum=0,
            maximum=6,
        ),
        Option("banque", "Banque (pour joueurs confirmés)", False, kind="bool"),
        Option(
            "doublette",
            "Doublette : équipes de deux, assises face à face (plus de 6 joueurs)",
            False,
            kind="bool",
        ),
    )

    def client_constants(self) -> dict[str, JSON]:
        """The race cries (one button each) and the Sirotage birds, by face."""
        return {
            "cries": list(C.RACE_CRIES),
            "calls": {"passe_grelot": C.CRI_PASSE_GRELOT, "boucliette": C.CRI_BOUCLIETTE},
            "birds": {str(f): b for f, b in C.BIRDS.items()},
        }

    def create(self, players: int, seed: int, options: dict[str, JSON]) -> State:
        return CulDeChouetteState(players, seed, options)

    def check_options(self, players: int, options: dict[str, JSON]) -> None:
        if options.get("doublette") and (players <= 6 or players % 2):
            raise InvalidOptions(
                "La Doublette se joue à plus de 6 joueurs, en nombre pair : 8 joueurs."
            )
        late = options.get("chante_sloubi", 0)
        if isinstance(late, int) and late > players - 2:
            raise InvalidOptions("Il faut au moins deux joueurs à table dès le début.")
        if late and options.get("doublette"):
            raise InvalidOptions("Chante-Sloubi et Doublette ne se combinent pas.")
        scribe = options.get("scribe", -1)
        if isinstance(scribe, int) and scribe >= players:
            raise InvalidOptions(
                f"Le scribe doit être l'un des {players} joueurs (0 à {players - 1})."
            )

    def bots(self) -> dict[str, BotFactory]:
        from choux.games.cul_de_chouette.bots import BOTS

        return dict(BOTS)

    def count_units(self, state: State) -> int:
        assert isinstance(state, CulDeChouetteState)
        return state.turn

    def summary_stats(self, state: State) -> dict[str, float]:
        assert isinstance(state, CulDeChouetteState)
        return {"tours par partie": float(state.turn)}

    def configurations(self) -> list[tuple[int, dict[str, JSON]]]:
        """Random play presses every −10 button it sees: the generic random walks use
        tables without the button (and shorter games for many players), plus one table
        with it, one with real dice and one with a scribe."""
        configs: list[tuple[int, dict[str, JSON]]] = [
            (n, {"bouton_bevue": False, "objectif": WALK_TARGETS.get(n, C.TARGET)})
            for n in range(self.min_players, self.max_players + 1)
        ]
        configs.append((4, {"objectif": 60}))
        configs.append((5, {"chante_sloubi": 2, "bouton_bevue": False, "objectif": 200}))
        configs.append((4, {"chante_sloubi": 1, "objectif": 60}))
        configs.append((4, {"banque": True, "bouton_bevue": False, "objectif": 250}))
        configs.append((3, {"banque": True, "des": "reels", "objectif": 60}))
        configs.append((8, {"doublette": True, "bouton_bevue": False, "objectif": 120}))
        configs.append((3, {"des": "reels", "bouton_bevue": False}))
        configs.append((3, {"des": "reels", "scribe": 1, "objectif": 100}))
        return configs

    def render_text(self, view: dict[str, JSON]) -> str:
        lines = [f"Tour {view['turn']} — {view['step_label']}"]
        dice = view.get("dice") or []
        if dice:
            lines.append("Dés : " + " ".join(str(d) for d in dice))
        for sheet in view["sheets"]:
            marks = "".join(
                mark
                for key, mark in (("grelottine", " 🔔"), ("civet", " 🍲"), ("boucliette", " 🛡"))
                if sheet[key]
            )
            turn = " ◀" if sheet["seat"] == view["roller"] else ""
            you = " (vous)" if sheet["seat"] == view["seat"] else ""
            lines.append(f"  Joueur {sheet['seat']}{you} : {sheet['score']}{marks}{turn}")
        for window in view["windows"]:
            lines.append(f"Fenêtre : {window['label']} ({window['seconds']:.0f} s)")
        return "\n".join(lines)
