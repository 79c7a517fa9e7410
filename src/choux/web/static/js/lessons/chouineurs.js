// « Apprendre à jouer » aux Chouineurs: the rules of a three-player game, one at each step.
// View keys: src/choux/games/chouineurs/state.py.
import { startLesson } from "./lesson.js";

const crying = (view) => view.phase === "chouine" && view.crybaby;
const myTurn = (view, seat) => view.phase === "jeu" && view.turn === seat;

startLesson([
  {
    id: "fin",
    title: "Vous savez jouer aux Chouineurs !",
    when: (view) => view.phase === "fin",
    text: () => "Après la quatrième manche, le plus haut total gagne ; à égalité, celui qui a marqué le plus à la dernière manche.\n"
      + "Pour continuer, créez une table contre des robots plus forts, ou invitez vos amis (de 3 à 5 joueurs) avec le lien de la table.",
  },
  {
    id: "pleurer",
    title: "Vous chouinez : choisissez votre bonus",
    when: (view, seat) => crying(view) && view.crybaby.seat === seat,
    text: (view) => "Vous avez posé la plus petite valeur du pli : vous êtes le chouineur, même si vous avez gagné le pli.\n"
      + (view.reserve > 0
        ? "Deux consolations au choix : retourner une carte de votre main (elle montre alors son autre bout, souvent bien plus fort), ou prendre une carte de la réserve, qui vaut 1 point à la fin de la manche quoi qu'il arrive à votre pari."
        : "La réserve est vide : il ne reste qu'à retourner une carte de votre main, qui montre alors son autre bout."),
  },
  {
    id: "chouineur",
    title: "Le chouineur",
    when: (view) => crying(view),
    text: () => "Celui qui a posé la plus petite valeur du pli, quelle que soit sa couleur, chouine : il retourne une carte de sa main ou prend 1 point dans la réserve. "
      + "À égalité, tous ceux qui ont la plus petite valeur chouinent, chacun à son tour.\n"
      + "Une petite carte n'est donc jamais perdue : elle console.",
  },
  {
    id: "decompte",
    title: "Le décompte de la manche",
    when: (view) => view.phase === "choix" && view.round > 1,
    text: () => "À la fin des sept plis, chacun regarde son pari : si son nombre de plis figure sur sa carte de pari, il marque les points indiqués et cette carte quitte le jeu ; sinon il ne marque rien et la récupère. "
      + "Chaque carte prise dans la réserve ajoute 1 point. La feuille de marque garde le détail.\n"
      + "Nouvelle manche : choisissez de nouveau l'orientation de votre main et un pari parmi les cartes qui vous restent.",
  },
  {
    id: "choix",
    title: "Votre choix secret",
    when: (view, seat) => view.phase === "choix" && !view.ready[seat],
    text: () => "Chaque carte a deux bouts de couleurs différentes : seul le bout du haut compte. Avant la manche, vous gardez votre main à l'endroit ou vous la retournez tout entière : regardez laquelle vous plaît.\n"
      + "Puis choisissez une carte de pari : elle dit combien de plis vous comptez gagner et ce que cela rapporte (l'orange paie 8 points pour aucun pli). Validez : personne ne voit votre choix avant la première carte jouée.",
  },
  {
    id: "attente",
    title: "Chacun choisit en secret",
    when: (view) => view.phase === "choix",
    text: () => "Les autres joueurs choisissent eux aussi, en même temps que vous, l'orientation de leur main et leur pari. Tout se dévoile quand la première carte du pli est posée.",
  },
  {
    id: "fournir",
    title: "Fournir la couleur demandée",
    when: (view, seat) => myTurn(view, seat) && view.trick.length > 0,
    text: (view) => `La couleur demandée est ${view.led_colour} : si vous en avez, vous devez en jouer. Sinon, jouez ce que vous voulez.\n`
      + "Une carte noire (un dragon) peut toujours être jouée, même si vous avez la couleur demandée. Les cartes que vous pouvez jouer sont mises en avant.",
  },
  {
    id: "pli",
    title: "Qui gagne le pli",
    when: (view) => view.phase === "jeu" && view.last_trick !== null,
    text: () => "Le pli revient au plus fort dragon (noir) ; sans dragon, au plus fort magicien (jaune, l'atout) ; sinon à la plus forte carte de la couleur demandée. "
      + "Le gagnant entame le pli suivant.\nComptez vos plis : seuls les nombres de plis inscrits sur votre carte de pari rapportent des points.",
  },
  {
    id: "entame",
    title: "À vous d'entamer",
    when: (view, seat) => myTurn(view, seat),
    text: () => "Vous commencez le pli : la couleur de votre carte devient la couleur demandée, que les autres devront fournir s'ils le peuvent.\n"
      + "Choisissez une carte de votre main pour la jouer.",
  },
  {
    id: "cartes",
    title: "Les cartes des Chouineurs",
    when: () => true,
    text: () => "Quatre personnages : reines (bleu) et rois (rouge) ne valent que par leur couleur ; les magiciens (jaune) sont les atouts ; les dragons (noir) sont des super-atouts qui l'emportent sur tout.\n"
      + "La partie dure quatre manches de sept plis ; le but est de gagner un nombre de plis inscrit sur sa carte de pari.",
  },
]);
