"""Feelings said in French that a caregiver may want to know about, by kind (see ``affect.py``).

Each fragment is an alternation written in natural spelling and matched against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

FEELINGS: Final[Mapping[str, str]] = {
    "fall": (
        r"je suis tombee?(?! sur (?:une?|des|quelqu'un|quelque)\b| (?:amoureuse?|malade|"
        r"d'accord|en panne|des nues)\b)|je me suis cassee? la figure|je ne peux (?:pas|plus) "
        r"me relever|j'ai fait une (?:mauvaise )?chute"
    ),
    "pain": (
        r"\bj'ai (?:tres |si |tellement |vraiment )?mal "
        r"(?:au|a la|a l'|aux|a|partout|dans)\b|"
        r"\bj'ai (?:tres |si |tellement )?mal\s*(?:$|[.!,])|\bje souffre\b|"
        r"\b(?:me|m') (?:fait|font) (?:tres |si |tellement |vraiment )?(?:mal|souffrir)\b|"
        r"\bj'ai (?:une |des )?(?:douleurs?|migraines?)\b"
    ),
    "loneliness": (
        r"je me sens (?:un peu |bien |si |tres |tellement |vraiment |assez )?"
        r"(?:seule?|isolee?|abandonnee?)|"
        r"je suis (?:tout |toute |bien |si |tres |tellement )?seule?"
        r"(?! a \w+(?:er|ir|re|oir)\b)(?! a savoir)|"
        r"personne ne (?:vient|m'appelle|me rend visite)"
    ),
    "fear": (
        r"j'ai (?:tres |si |un peu )?peur|je suis (?:tres |si )?(?:inquiete?|angoissee?|"
        r"effrayee?|terrifiee?)|ca m'angoisse"
    ),
    "sadness": (
        r"je suis (?:tres |si |un peu )?(?:triste|deprimee?)|"
        r"je me sens (?:tres |si |un peu )?(?:triste|deprimee?)|je deprime|"
        r"j'ai (?:un peu |vraiment |encore |souvent )?le cafard|"
        r"j'ai le moral (?:a zero|dans les chaussettes)|"
        r"(?:je n'ai|j'ai|j'ai plus|je n'ai plus) "
        r"(?:pas |plus )?le moral"
    ),
}
