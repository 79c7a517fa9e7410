// « Apprendre à jouer » au Cul de Chouette: one rule at each step of a game against a robot.
// View keys: src/choux/games/cul_de_chouette/state.py.
import { startLesson } from "./lesson.js";

const mine = (view) => view.roller === view.seat;

const RACES = {
  suite: "Trois valeurs qui se suivent : une Suite ! Tout le monde doit cliquer sur « Grelotte ça picote ! », et le dernier à le faire perd 10 points. Vite !",
  chouette_velute: "Une Chouette Velute (1-1-2, 2-2-4 ou 3-3-6) : les points vont au premier qui clique sur « Pas mou le caillou ! », le lanceur compris.",
  pelican: "Un Pélican : le premier qui crie « Pélican ! » l'emporte.",
  contre_sirop: "Le Sirotage est raté : le premier adversaire qui clique sur « J'apprécie les fruits au sirop ! » gagne des points.",
};

const READINGS = {
  Chouette: "Une Chouette : deux dés pareils. Le lanceur marque le carré de leur valeur, de 1 (deux 1) à 36 (deux 6).",
  Velute: "Une Velute : deux dés dont la somme fait le troisième (2, 3 et 5). Le lanceur marque deux fois le carré du plus grand dé.",
  "Cul de Chouette": "Un Cul de Chouette : trois dés pareils, 40 points plus dix fois la valeur.",
  Néant: "Un Néant : aucune combinaison, aucun point. Le lanceur reçoit une Grelottine s'il n'en a pas, de quoi défier les autres plus tard.",
  Suite: "Une Suite : trois valeurs qui se suivent. Tout le monde devait cliquer sur « Grelotte ça picote ! » ; le dernier perd 10 points.",
};

const readingName = (view) => (view.last_roll && view.last_roll.name) || null;

startLesson([
  {
    id: "fin",
    title: "Vous savez jouer au Cul de Chouette !",
    when: (view) => view.over,
    text: (view) => `La partie se gagne en atteignant ${view.target} points pendant son propre tour, avec les points de son propre lancer.\n`
      + "Il reste bien d'autres règles à découvrir (Soufflette, Bleu-Rouge, Civet…) : les règles complètes sont à un clic, et une table contre plusieurs robots vous attend.",
  },
  {
    id: "course",
    title: "Une course : cliquez vite",
    when: (view) => !!view.race,
    text: (view) => RACES[view.race.kind] || `Le premier qui clique sur « ${view.race.cry} » l'emporte.`,
  },
  {
    id: "siroter",
    title: "Le Sirotage",
    when: (view) => ["siroter", "paris_sirotage", "sirotage"].includes(view.step),
    text: () => "Après une Chouette, le lanceur peut siroter : relancer le dé isolé pour tenter le Cul de Chouette. "
      + "Réussi, il marque le Cul de Chouette ; raté, il perd la valeur de la Chouette.\nPrudent, on garde sa Chouette.",
  },
  {
    id: "grelottine",
    title: "La Grelottine",
    when: (view) => ["grelottine", "annonce", "defi", "sirop_grelot"].includes(view.step),
    text: () => "Après un Néant, un joueur qui a une Grelottine peut crier « Grelottine ! » : il impose au lanceur une combinaison à réussir et une mise. "
      + "La Boucliette, une fois par partie, annule un défi.",
  },
  {
    id: "achat",
    title: "L'achat de dé",
    when: (view) => view.step === "achat",
    text: () => "Entre les Chouettes et le Cul, un autre joueur qui a au moins 30 points peut acheter le Cul pour 30 points, et jouer la combinaison à la place du lanceur.",
  },
  {
    id: "cul",
    title: "Le Cul : le troisième dé",
    when: (view) => view.step === "cul",
    text: (view) => `Les deux Chouettes sont sur la table (${(view.chouettes || []).join(" et ")}). `
      + "Le troisième dé, le Cul, complète la combinaison : l'ordre des dés ne compte pas, on lit les trois ensemble.",
  },
  {
    id: "tour",
    title: "Un tour : les Chouettes, puis le Cul",
    when: (view) => view.step === "debut" && (mine(view) || !readingName(view)),
    text: (view) => `${mine(view) ? "À vous : lancez" : "Le lanceur lance"} d'abord deux dés, les Chouettes, puis le troisième, le Cul. `
      + "Chacun joue à son tour ; les points marqués pendant le tour des autres existent aussi (les courses).",
  },
  {
    id: "lecture",
    title: "Lire les dés",
    when: (view) => !!readingName(view) && READINGS[readingName(view)] !== undefined,
    text: (view) => READINGS[readingName(view)],
  },
  {
    id: "ouverture",
    title: "Qui commence ?",
    when: () => true,
    text: (view) => `Chacun lance un dé : le plus petit ouvre la partie. Le but : atteindre ${view.target} points, pendant son propre tour.`,
  },
]);
