"""Captured words turned to address the user on a card ("my mother" → "your mother").

The stored memory keeps what the user said ("il faut que j'appelle ma mère"); the card that
confirms it speaks to them ("Tâche ajoutée : appeler votre mère."). Only reliable conversions are
made, per language: first-person possessives and object pronouns; a French first-person verb at
the start becomes its infinitive (regular -er verbs by rule, the common others from a table);
a Greek first-person verb after «να» takes the polite second person (-ω → -ετε). A form with no
reliable rule is left as the user said it. The register is the one of the Assist phrases: French
«vous», Greek «εσείς»; Spanish and Italian «tú»/«tu», German «du», Portuguese «você».
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

_WORD_RE: Final = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


def _same_case(word: str, replacement: str) -> str:
    """``replacement`` written with the capitals of ``word`` (MY → YOUR, My → Your)."""
    if len(word) > 1 and word.isupper():
        return replacement.upper()
    if word[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _swap_words(
    text: str, table: dict[str, str], case: Callable[[str, str], str] | None = None
) -> str:
    """Replace the whole words of ``table`` (compared in lower case), keeping their capitals."""
    recase = case or _same_case

    def swap(match: re.Match[str]) -> str:
        word = match.group()
        replacement = table.get(word.lower().replace("’", "'"))
        return word if replacement is None else recase(word, replacement)

    return _WORD_RE.sub(swap, text)


# English: the words are the user's; "I" becomes "you" with its verb where the verb changes.
_EN_PHRASES: Final = (
    (re.compile(r"\bI\s+am\b", re.IGNORECASE), "you are"),
    (re.compile(r"\bI\s+was\b", re.IGNORECASE), "you were"),
    (re.compile(r"\bwe\s+were\b", re.IGNORECASE), "you were"),
)
_EN_WORDS: Final = {
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "me": "you",
    "i": "you",
    "i'm": "you're",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "our": "your",
    "ours": "yours",
    "ourselves": "yourselves",
    "we": "you",
    "we're": "you're",
    "we've": "you've",
    "we'll": "you'll",
    "we'd": "you'd",
}


def _en_case(word: str, replacement: str) -> str:
    """ "I" is written with a capital anywhere; "you" only keeps capitals written as such."""
    if word[:1] == "I" and not (len(word) > 2 and word.isupper()):
        return replacement
    return _same_case(word, replacement)


def _en(text: str) -> str:
    for pattern, replacement in _EN_PHRASES:

        def phrase(match: re.Match[str], new: str = replacement) -> str:
            return _en_case(match.group(), new)

        text = pattern.sub(phrase, text)
    # "US" (the country) stays; "us" becomes "you".
    text = re.sub(r"\bus\b", "you", text)
    text = re.sub(r"\bUs\b", "You", text)
    return _swap_words(text, _EN_WORDS, _en_case)


# French (vous): "je"/"j'" + verb at the start → the infinitive; possessives and "me" → vous.
_FR_IRREGULAR: Final = {
    **dict.fromkeys(("ai", "aie"), "avoir"),
    **dict.fromkeys(("suis", "sois"), "être"),
    **dict.fromkeys(("vais", "aille"), "aller"),
    **dict.fromkeys(("fais", "fasse"), "faire"),
    **dict.fromkeys(("refais", "refasse"), "refaire"),
    **dict.fromkeys(("dois", "doive"), "devoir"),
    **dict.fromkeys(("peux", "puis", "puisse"), "pouvoir"),
    **dict.fromkeys(("veux", "veuille"), "vouloir"),
    **dict.fromkeys(("sais", "sache"), "savoir"),
    **dict.fromkeys(("vois", "voie"), "voir"),
    **dict.fromkeys(("revois", "revoie"), "revoir"),
    **dict.fromkeys(("prends", "prenne"), "prendre"),
    **dict.fromkeys(("reprends", "reprenne"), "reprendre"),
    **dict.fromkeys(("apprends", "apprenne"), "apprendre"),
    **dict.fromkeys(("comprends", "comprenne"), "comprendre"),
    **dict.fromkeys(("mets", "mette"), "mettre"),
    **dict.fromkeys(("remets", "remette"), "remettre"),
    **dict.fromkeys(("viens", "vienne"), "venir"),
    **dict.fromkeys(("reviens", "revienne"), "revenir"),
    **dict.fromkeys(("tiens", "tienne"), "tenir"),
    **dict.fromkeys(("obtiens", "obtienne"), "obtenir"),
    **dict.fromkeys(("pars", "parte"), "partir"),
    **dict.fromkeys(("repars", "reparte"), "repartir"),
    **dict.fromkeys(("sors", "sorte"), "sortir"),
    **dict.fromkeys(("ressors", "ressorte"), "ressortir"),
    **dict.fromkeys(("dors", "dorme"), "dormir"),
    **dict.fromkeys(("sers", "serve"), "servir"),
    **dict.fromkeys(("ouvre",), "ouvrir"),
    **dict.fromkeys(("rouvre",), "rouvrir"),
    **dict.fromkeys(("couvre",), "couvrir"),
    **dict.fromkeys(("découvre",), "découvrir"),
    **dict.fromkeys(("offre",), "offrir"),
    **dict.fromkeys(("souffre",), "souffrir"),
    **dict.fromkeys(("cueille",), "cueillir"),
    **dict.fromkeys(("accueille",), "accueillir"),
    **dict.fromkeys(("dis", "dise"), "dire"),
    **dict.fromkeys(("lis", "lise"), "lire"),
    **dict.fromkeys(("relis", "relise"), "relire"),
    **dict.fromkeys(("écris", "écrive"), "écrire"),
    **dict.fromkeys(("inscris", "inscrive"), "inscrire"),
    **dict.fromkeys(("conduis", "conduise"), "conduire"),
    **dict.fromkeys(("traduis", "traduise"), "traduire"),
    **dict.fromkeys(("suive",), "suivre"),
    **dict.fromkeys(("vis", "vive"), "vivre"),
    **dict.fromkeys(("bois", "boive"), "boire"),
    **dict.fromkeys(("reçois", "reçoive"), "recevoir"),
    **dict.fromkeys(("crois", "croie"), "croire"),
    **dict.fromkeys(("cours", "coure"), "courir"),
    **dict.fromkeys(("rends", "rende"), "rendre"),
    **dict.fromkeys(("vends", "vende"), "vendre"),
    **dict.fromkeys(("attends", "attende"), "attendre"),
    **dict.fromkeys(("réponds", "réponde"), "répondre"),
    **dict.fromkeys(("descends", "descende"), "descendre"),
    **dict.fromkeys(("entends", "entende"), "entendre"),
    **dict.fromkeys(("perds", "perde"), "perdre"),
    **dict.fromkeys(("éteins", "éteigne"), "éteindre"),
    **dict.fromkeys(("rejoins", "rejoigne"), "rejoindre"),
    **dict.fromkeys(("joins", "joigne"), "joindre"),
    **dict.fromkeys(("connais", "connaisse"), "connaître"),
    **dict.fromkeys(("reconnais", "reconnaisse"), "reconnaître"),
    **dict.fromkeys(("permets", "permette"), "permettre"),
    **dict.fromkeys(("promets", "promette"), "promettre"),
    **dict.fromkeys(("produis", "produise"), "produire"),
    **dict.fromkeys(("construis", "construise"), "construire"),
    **dict.fromkeys(("réduis", "réduise"), "réduire"),
    **dict.fromkeys(("crains", "craigne"), "craindre"),
    **dict.fromkeys(("plains", "plaigne"), "plaindre"),
    **dict.fromkeys(("finis", "finisse"), "finir"),
    **dict.fromkeys(("choisis", "choisisse"), "choisir"),
    **dict.fromkeys(("remplis", "remplisse"), "remplir"),
    **dict.fromkeys(("réfléchis", "réfléchisse"), "réfléchir"),
    **dict.fromkeys(("réussis", "réussisse"), "réussir"),
    **dict.fromkeys(("fournis", "fournisse"), "fournir"),
    **dict.fromkeys(("préviens", "prévienne"), "prévenir"),
}
# -er verbs whose first person doubles the consonant or takes a grave accent on a plain "e".
_FR_ER_STEMS: Final = {
    "appelle": "appeler",
    "rappelle": "rappeler",
    "renouvelle": "renouveler",
    "épelle": "épeler",
    "jette": "jeter",
    "rejette": "rejeter",
    "achète": "acheter",
    "rachète": "racheter",
    "lève": "lever",
    "enlève": "enlever",
    "relève": "relever",
    "soulève": "soulever",
    "mène": "mener",
    "amène": "amener",
    "emmène": "emmener",
    "ramène": "ramener",
    "promène": "promener",
    "pèse": "peser",
    "gèle": "geler",
    "achève": "achever",
}
# Endings of first persons that are not of an -er verb: without a table entry, no conversion.
_FR_NOT_ER: Final = re.compile(r"(?:isse|enne|oive|[aeo]igne|uise|aise|rie)$")
_FR_LEADING_JE: Final = re.compile(
    r"^(?:je\s+|j['’]\s*)(?P<me>me\s+|m['’]\s*)?(?P<verb>[^\W\d_]+)(?![\w'’-])", re.I
)
_FR_NOT_VERBS: Final = frozenset(
    {"ne", "n", "le", "la", "les", "lui", "leur", "en", "y", "te", "se"}
)
_FR_ME_BEFORE_VERB: Final = re.compile(r"\b(?:me\s+|m['’]\s*)(?=[^\W\d_])", re.I)
_FR_WORDS: Final = {
    "mon": "votre",
    "ma": "votre",
    "mes": "vos",
    "moi": "vous",
    "moi-même": "vous-même",
    "notre": "votre",
    "nos": "vos",
}


def _fr_infinitive(verb: str) -> str | None:
    """The infinitive of a French first-person verb, or None when no rule is reliable."""
    lower = verb.lower()
    if lower in _FR_NOT_VERBS:
        return None
    if lower in _FR_IRREGULAR:
        return _FR_IRREGULAR[lower]
    if lower in _FR_ER_STEMS:
        return _FR_ER_STEMS[lower]
    if re.search(r"[oua]ie$", lower):  # envoie, essuie, paie → envoyer, essuyer, payer
        return lower[:-2] + "yer"
    if lower.endswith("e") and not _FR_NOT_ER.search(lower):
        # è before the last consonants of a regular verb is é in the infinitive (répète).
        return re.sub(r"è(?=[^\W\d_aeiouyéèê]+e$)", "é", lower) + "r"
    return None


def _fr(text: str) -> str:
    match = _FR_LEADING_JE.match(text)
    if match:
        infinitive = _fr_infinitive(match.group("verb"))
        if infinitive is not None:
            me = "vous " if match.group("me") else ""
            text = _same_case(match.group(), me + infinitive) + text[match.end() :]
    text = _FR_ME_BEFORE_VERB.sub(lambda m: _same_case(m.group(), "vous "), text)
    return _swap_words(text, _FR_WORDS)


# Greek (polite plural): «να» + first-person verb → second person plural; μου/μας → σας.
_EL_CLITICS: Final = r"(?:(?:μην?|δεν|το|τα|τον|την|τη|τους|τις|του|της|τους|μου|σου|μας|σας)\s+)*"
_EL_NA_VERB: Final = re.compile(r"\b(?P<na>να\s+" + _EL_CLITICS + r")(?P<verb>[^\W\d_]+)\b", re.I)
_EL_ENDINGS: Final = (
    ("άω", "άτε"),
    ("αω", "ατε"),
    ("ούμε", "είτε"),
    ("ουμε", "ετε"),
    ("άμε", "άτε"),
    ("αμε", "ατε"),
    ("ω", "ετε"),
)
_EL_MONOSYLLABLES: Final = {"πω": "πείτε", "δω": "δείτε", "βρω": "βρείτε", "μπω": "μπείτε"}
_EL_MONOSYLLABLES_MORE: Final = {"βγω": "βγείτε", "ρθω": "ρθείτε"}
_EL_POSSESSIVE: Final = re.compile(
    r"(?<![^\W\d_])(?P<before>[^\W\d_]+\s+)(?P<pronoun>μου|μας)(?![^\W\d_])", re.I
)
_EL_NOT_NOUNS: Final = frozenset({"να", "θα", "μη", "μην", "δεν", "και", "ότι", "πως", "που"})


def _el_verb(verb: str) -> str:
    lower = verb.lower()
    if lower in _EL_MONOSYLLABLES or lower in _EL_MONOSYLLABLES_MORE:
        return _same_case(verb, {**_EL_MONOSYLLABLES, **_EL_MONOSYLLABLES_MORE}[lower])
    if lower.endswith(("ώ", "είμαι", "ομαι", "ώμαι")):
        return verb  # contracted and passive verbs: no single rule
    for ending, second in _EL_ENDINGS:
        if lower.endswith(ending):
            return _same_case(verb, lower[: -len(ending)] + second)
    return verb


def _el(text: str) -> str:
    text = _EL_NA_VERB.sub(lambda m: m.group("na") + _el_verb(m.group("verb")), text)

    def possessive(match: re.Match[str]) -> str:
        if match.group("before").strip().lower() in _EL_NOT_NOUNS:
            return match.group()
        return match.group("before") + _same_case(match.group("pronoun"), "σας")

    return _EL_POSSESSIVE.sub(possessive, text)


# Spanish (tú), Italian (tu), German (du), Portuguese (você): possessives and reflexives.
_ES_WORDS: Final = {
    "mi": "tu",
    "mis": "tus",
    "mío": "tuyo",
    "mía": "tuya",
    "míos": "tuyos",
    "mías": "tuyas",
    "mí": "ti",
    "me": "te",
    "conmigo": "contigo",
}
_IT_WORDS: Final = {
    "mio": "tuo",
    "mia": "tua",
    "miei": "tuoi",
    "mie": "tue",
    "me": "te",
    "mi": "ti",
}
_DE_WORDS: Final = {
    "mein": "dein",
    "meine": "deine",
    "meinen": "deinen",
    "meinem": "deinem",
    "meiner": "deiner",
    "meines": "deines",
    "mich": "dich",
    "mir": "dir",
}
_PT_WORDS: Final = {
    "meu": "seu",
    "minha": "sua",
    "meus": "seus",
    "minhas": "suas",
    "comigo": "com você",
}


def _es(text: str) -> str:
    # An infinitive with "me" attached (cortarme el pelo) takes "te".
    text = re.sub(r"(?<=[^\W\d_][aeií]r)me\b", "te", text)
    return _swap_words(text, _ES_WORDS)


def _it(text: str) -> str:
    text = re.sub(r"(?<=[^\W\d_][aei]r)mi\b", "ti", text)  # ricordarmi → ricordarti
    return _swap_words(text, _IT_WORDS)


def _de(text: str) -> str:
    return _swap_words(text, _DE_WORDS)


def _pt(text: str) -> str:
    return _swap_words(text, _PT_WORDS)


_BY_LANGUAGE: Final[dict[str, Callable[[str], str]]] = {
    "en": _en,
    "fr": _fr,
    "el": _el,
    "es": _es,
    "de": _de,
    "it": _it,
    "pt": _pt,
}


# A French statement read back to its speaker: "je suis …" → "vous êtes …".
_FR_VOUS: Final = {
    "avoir": "avez",
    "être": "êtes",
    "aller": "allez",
    "faire": "faites",
    "refaire": "refaites",
    "dire": "dites",
    "pouvoir": "pouvez",
    "vouloir": "voulez",
    "devoir": "devez",
    "savoir": "savez",
    "voir": "voyez",
    "prendre": "prenez",
    "apprendre": "apprenez",
    "comprendre": "comprenez",
    "mettre": "mettez",
    "venir": "venez",
    "revenir": "revenez",
    "tenir": "tenez",
    "vivre": "vivez",
    "boire": "buvez",
    "lire": "lisez",
    "écrire": "écrivez",
    "connaître": "connaissez",
    "croire": "croyez",
    "recevoir": "recevez",
    "partir": "partez",
    "sortir": "sortez",
    "dormir": "dormez",
    "finir": "finissez",
    "choisir": "choisissez",
}
# Greek statements: a first-person verb at the start → the polite second person.
_EL_STATEMENT_VERBS: Final = {
    "είμαι": "είστε",
    "λέγομαι": "λέγεστε",
    "ονομάζομαι": "ονομάζεστε",
    "θυμάμαι": "θυμάστε",
    "κοιμάμαι": "κοιμάστε",
    "μπορώ": "μπορείτε",
    "ζω": "ζείτε",
    "πάω": "πάτε",
    "λέω": "λέτε",
    "τρώω": "τρώτε",
}


def _fr_vous(verb: str) -> str | None:
    """The «vous» form of a French first-person present verb, or None with no reliable rule."""
    infinitive = _fr_infinitive(verb)
    if infinitive is None:
        return None
    if infinitive in _FR_VOUS:
        return _FR_VOUS[infinitive]
    if infinitive.endswith("yer"):
        return infinitive[:-2] + "ez"
    if infinitive.endswith("er"):
        return infinitive[:-2] + "ez"
    return None


def _fr_statement(text: str) -> str:
    match = _FR_LEADING_JE.match(text)
    if match:
        vous = _fr_vous(match.group("verb"))
        if vous is not None:
            reflexive = "vous " if match.group("me") else ""
            return _same_case(match.group(), "vous " + reflexive + vous) + _fr(text[match.end() :])
    return _fr(text)


def _el_statement(text: str) -> str:
    first, space, rest = text.partition(" ")
    second = _EL_STATEMENT_VERBS.get(first.lower())
    if second is None and first.lower().endswith(("ω", "ώ")) and len(first) > 2:
        second = _el_verb(first.lower())
        second = None if second == first.lower() else second
    if second is not None:
        return _same_case(first, second) + space + _el(rest)
    return _el(text)


def tell_user(content: str, language: str) -> str:
    """A remembered statement (the user's words) read back to them, as a sentence:
    "ma petite-fille s'appelle Léa" → "Votre petite-fille s'appelle Léa.", "je suis allergique
    aux noix" → "Vous êtes allergique aux noix.", "I live in Lyon" → "You live in Lyon."."""
    convert = {"fr": _fr_statement, "el": _el_statement}.get(language)
    said = convert(content.strip()) if convert is not None else address_user(content, language)
    said = said.strip().rstrip(" .")
    return (said[:1].upper() + said[1:] + ".") if said else said


def address_user(content: str, language: str) -> str:
    """``content`` (the user's words) as a card says it to them, in ``language`` (a base code)."""
    convert = _BY_LANGUAGE.get(language)
    return convert(content) if convert is not None else content
