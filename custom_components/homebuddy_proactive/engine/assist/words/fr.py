"""The French words Assist listens for: numbers, weekdays, yes and no."""

from __future__ import annotations

from typing import Final

from .vocabulary import Vocabulary

VOCABULARY: Final = Vocabulary(
    number_units={
        "zéro": 0,
        "un": 1,
        "une": 1,
        "deux": 2,
        "trois": 3,
        "quatre": 4,
        "cinq": 5,
        "six": 6,
        "sept": 7,
        "huit": 8,
        "neuf": 9,
        "dix": 10,
        "onze": 11,
        "douze": 12,
        "treize": 13,
        "quatorze": 14,
        "quinze": 15,
        "seize": 16,
    },
    number_tens={"vingt": 20, "trente": 30, "quarante": 40, "cinquante": 50},
    weekdays={
        "lundi": 0,
        "mardi": 1,
        "mercredi": 2,
        "jeudi": 3,
        "vendredi": 4,
        "samedi": 5,
        "dimanche": 6,
    },
    yes=frozenset(
        {
            "oui",
            "ouais",
            "ouai",
            "ouiii",
            "volontiers",
            "d'accord",
            "daccord",
            "dac",
            "confirme",
            "confirmer",
            "exactement",
            "absolument",
            "certainement",
            "évidemment",
            "parfait",
            "carrément",
            "ok",
            "okay",
        }
    ),
    yes_phrases=(
        "bien sûr",
        "bien entendu",
        "c'est bon",
        "vas y",
        "allez y",
        "allez",
        "tout à fait",
        "c'est ça",
        "c'est bon vas y",
        "fais le",
        "faites le",
    ),
    no=frozenset({"non", "nan", "ne", "pas", "annule", "annuler", "surtout", "jamais", "arrête"}),
    no_phrases=(
        "laisse tomber",
        "laissez tomber",
        # A yes word, then the negation: "absolument pas".
        "absolument pas",
        "certainement pas",
        "évidemment pas",
        "sûrement pas",
        "bien sûr que non",
        "pas la peine",
        "c'est pas la peine",
        "ce n'est pas la peine",
    ),
    yes_despite_no=("pas de problème", "pas de souci", "pourquoi pas"),
    unsure_phrases=(
        "pas sûr",
        "pas sûre",
        "pas certain",
        "pas certaine",
        "je sais pas",
        "je ne sais pas",
    ),
    fillers=frozenset({"euh", "heu", "euhh", "hum", "hmm", "ben", "bah", "mais", "ah", "oh"})
    | frozenset({"eh", "alors", "bon"}),
)
