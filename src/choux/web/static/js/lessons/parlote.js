// « Apprendre à jouer » à la parlote coinchée: one rule at each step of a game in the
// « Honneur » mode (every typed argument counts), the learner's partner and opponents robots.
// View keys: src/choux/games/parlote/state.py.
import { startLesson } from "./lesson.js";

const legalTypes = (view) => (view.legal || []).map((l) => l.action.type);
const canPlay = (view) => view.phase === "play" && legalTypes(view).includes("jouer");
const partnerOf = (seat) => (seat + 2) % 4;

startLesson([
  {
    id: "fin",
    title: "Vous savez jouer à la parlote coinchée !",
    when: (view) => view.phase === "over",
    text: (view) => `La première équipe au-delà de ${view.target} points gagne (ici une partie courte : d'habitude, 1000).\n`
      + "Entre amis, essayez le mode « Jury » : un adversaire peut contester votre argument, et les trois autres joueurs votent pour savoir s'il compte. C'est là que la parlote devient vraiment drôle.",
  },
  {
    id: "menteur",
    title: "Qui a menti en dernier ?",
    when: (view) => view.phase === "liar",
    text: () => "Le premier piocheur est celui qui a menti en dernier : avouez-le d'un clic sur « Moi ! ». Le piocheur est tiré parmi ceux qui l'ont dit.\n"
      + "Vous jouez avec le joueur d'en face (votre partenaire) contre les deux autres.",
  },
  {
    id: "pioche",
    title: "Le scénario",
    when: (view, seat) => view.phase === "draw" && (view.reader === seat || !(view.results || []).length),
    text: (view, message) => (view.reader === message.seat
      ? "Vous êtes le piocheur : choisissez une des deux pioches de scénarios (son thème est au dos). "
      : "Le piocheur choisit une des deux pioches de scénarios. ")
      + "Le scénario dit qui doit convaincre qui, et de quoi : tous les arguments de la manche devront y répondre.",
  },
  {
    id: "encheres",
    title: "Les enchères : deux couleurs d'atout",
    when: (view, seat) => view.phase === "bidding" && view.bidding && view.bidding.turn === seat,
    text: () => "Annoncez combien de points votre équipe fera (de 80 à 150, ou « capot » pour les sept plis) et choisissez deux couleurs d'atout, celles où votre main a les niveaux les plus bas. Ou passez.\n"
      + "Les adversaires peuvent coincher : les enchères s'arrêtent et la manche compte double.",
  },
  {
    id: "decompte",
    title: "Le décompte de la manche",
    when: (view) => (view.results || []).length > 0 && ["draw", "bidding"].includes(view.phase),
    text: () => "Chaque pli rapporte les points de ses cartes : hors atout, deux fois le niveau de la carte ; à l'atout, 12 moins deux fois son niveau.\n"
      + "Si l'équipe qui a pris atteint son enchère, elle marque l'enchère plus ses points ; sinon l'autre équipe marque 160 plus l'enchère. Une coinche double tout. Le récapitulatif de la manche explique chaque carte jouée : lisez-le !",
  },
  {
    id: "encheres-autres",
    title: "Les enchères",
    when: (view) => view.phase === "bidding",
    text: () => "Chacun à son tour surenchérit de 10 en 10 ou passe. Pendant que les adversaires annoncent, vous pouvez coincher pour doubler l'enjeu.\n"
      + "Regardez votre main : le niveau d'une carte (1 à 4) dit si l'argument fallacieux est général ou très précis.",
  },
  {
    id: "jouer",
    title: "Jouer une carte et son argument",
    // when leading, and at the learner's first card of a deal even if not leading
    when: (view) => canPlay(view) && (view.trick.plays.length === 0 || view.hand.length === 7),
    text: () => "Choisissez une carte, puis écrivez un argument qui illustre ce sophisme pour répondre au scénario : la carte vous donne sa définition et un exemple. "
      + "En mode « Honneur », tout argument écrit compte.\nUne carte jouée sans argument ne peut gagner le pli que si personne n'a argumenté.",
  },
  {
    id: "gagner",
    title: "Qui gagne le pli",
    when: (view) => canPlay(view),
    text: (view) => `Parmi les cartes dont l'argument compte : si un atout (${(view.contract?.colours || []).map((c) => (view.colours || []).find((x) => x.id === c)?.name || c).join(", ") || "les deux couleurs de l'enchère"}) est joué, l'atout du niveau le plus bas gagne ; sinon, la carte du niveau le plus haut.\n`
      + "Votre partenaire, en face, partage vos plis : s'il gagne déjà, gardez vos bonnes cartes.",
  },
  {
    id: "pli",
    title: "Les plis de l'équipe",
    when: (view) => view.phase === "play" && view.last_trick,
    text: (view, message) => `${view.last_trick.winner === message.seat || view.last_trick.winner === partnerOf(message.seat) ? "Votre équipe" : "L'équipe adverse"} a pris le dernier pli. `
      + "Le gagnant d'un pli entame le suivant. Les deux partenaires mettent leurs plis en commun.\n"
      + "Un pli vaut les points de ses cartes : hors atout deux fois leur niveau, à l'atout 12 moins deux fois leur niveau.",
  },
  {
    id: "main",
    title: "Les cartes : des arguments fallacieux",
    when: () => true,
    text: () => "Chaque carte est un sophisme d'une des sept couleurs (insuffisance, influence, erreur mathématique…). Son niveau va de 1, la famille générale, à 4, le sophisme le plus précis.\n"
      + "Sans atout, la carte du niveau le plus haut gagne le pli ; le mémo rappelle les sept couleurs et leurs arbres.",
  },
]);
