// « Apprendre à jouer » la Chouine: the rules of a two-player game, one at each step.
// View keys: src/choux/games/chouine/state.py.
import { startLesson } from "./lesson.js";

const legalTypes = (view) => (view.legal || []).map((l) => l.action);
const canDeclare = (view) => legalTypes(view).some((a) => a.type === "play" && a.declare);
const canExchange = (view) => legalTypes(view).some((a) => a.type === "exchange");

startLesson([
  {
    id: "fin",
    title: "Vous savez jouer à la Chouine !",
    when: (view) => view.stage === "over",
    text: () => "La manche revient au premier qui gagne deux parties : le match est fini.\n"
      + "Pour continuer, créez une table contre un robot plus fort, ou invitez vos amis avec le lien de la table.",
  },
  {
    id: "decompte",
    title: "Le décompte de la partie",
    when: (view) => view.stage === "between",
    text: (view) => (view.last_result && view.last_result.reason === "chouine"
      ? "Une Chouine a été annoncée : elle gagne la partie d'un coup, sans compter les points.\n"
        + "Sinon, chacun compte les points de ses plis (as 11, dix 10, roi 4, dame 3, valet 2), "
        + "plus ses annonces et le dix de der, et le plus haut total gagne. "
      : "Chacun compte les points de ses plis : as 11, dix 10, roi 4, dame 3, valet 2, les autres rien. "
        + "Les annonces s'y ajoutent, et le gagnant du dernier pli marque 10 points de plus : le dix de der.\n"
        + "Le plus haut total gagne la partie. ")
      + "La suivante se donne dans un instant.",
  },
  {
    id: "annonce",
    title: "Annoncer une combinaison",
    when: (view) => canDeclare(view),
    text: (view) => `Vous tenez une combinaison : annoncez-la en jouant l'une de ses cartes (les boutons « Annoncer… » sous votre main). `
      + `Un mariage, roi et dame de la même couleur, vaut 20 points, et 40 en atout (${view.trump_name}).\n`
      + "Les points d'une annonce comptent tout de suite, même si vous perdez le pli.",
  },
  {
    id: "sept",
    title: "Le sept d'atout",
    when: (view) => canExchange(view),
    text: () => "Vous avez le sept d'atout : avant de jouer, vous pouvez l'échanger contre la carte retournée sous le talon, souvent plus forte.",
  },
  {
    id: "talon-ferme",
    title: "Le talon est épuisé : il faut fournir",
    when: (view) => view.stage === "play" && view.phase === 2,
    text: () => "Plus de pioche : il faut maintenant fournir la couleur demandée ; sans elle, couper avec un atout ; sinon, jouer n'importe quelle carte.\n"
      + "Si l'atout est demandé, il faut monter : jouer un atout plus fort si vous en avez un. Les cartes jouables sont mises en avant dans votre main.",
  },
  {
    id: "pioche",
    title: "Ramasser et piocher",
    when: (view) => view.stage === "play" && view.last_trick !== null,
    text: () => "Le gagnant du pli le ramasse et pioche le premier, puis l'autre joueur : chacun retrouve cinq cartes. "
      + "Le gagnant entame le pli suivant.\nLes cartes ramassées comptent à la fin de la partie : gardez un œil sur les as et les dix, les brisques.",
  },
  {
    id: "libre",
    title: "Jouer librement tant qu'il reste un talon",
    when: (view) => view.stage === "play" && view.trick.length > 0,
    text: () => "Tant qu'il reste des cartes au talon, on joue la carte que l'on veut : aucune obligation de fournir ni de couper.\n"
      + "Le pli revient au plus fort atout ; sans atout, à la plus forte carte de la couleur demandée.",
  },
  {
    id: "atout",
    title: "L'atout et l'ordre des cartes",
    when: () => true,
    text: (view) => `La carte retournée sous le talon donne l'atout : ${view.trump_name || "sa couleur"}. Un atout bat toute carte d'une autre couleur.\n`
      + "Dans chaque couleur, de la plus forte à la plus faible : as, dix, roi, dame, valet, neuf, huit, sept. Choisissez une carte de votre main pour la jouer.",
  },
]);
