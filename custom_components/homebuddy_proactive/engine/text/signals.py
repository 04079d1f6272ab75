"""Cheap local readings of an utterance: is it meaningful speech, does it announce a new topic,
and which weak intent (warning, correction, decision, definition, fact check) does it hint at.

Each is a few folded regular expressions covering every supported language at once.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from ..const import (
    INTENT_CORRECTION,
    INTENT_DECISION,
    INTENT_DEFINITION,
    INTENT_FACT_CHECK,
    INTENT_WARNING,
)
from .literals import Search
from .normalize import compile_folded as _compile
from .normalize import fold, strip_accents
from .normalize import fold_aligned as _fold_aligned
from .normalize import folded_words as _fw
from .segment import _LETTER_RE, _WORD_RE, _has_letters, _phrases

# One alternation, searched once per utterance (every final is checked for a cue).
_EPISODE_PARTS: Final = (
    r"\bnew\s+(?:topic|subject|conversation)\b",
    r"\bchang(?:e|ing)\s+(?:of\s+|the\s+)?(?:subject|topic)s?\b",
    r"\bswitch(?:ing)?\s+(?:the\s+)?(?:topic|subject|gears)s?\b",
    r"\bstart\s+(?:over|again|afresh|fresh|from\s+scratch)\b",
    r"\b(?:different|another|next|other)\s+(?:topic|subject)\b",
    r"\b(?:talk|speak)\s+about\s+something\s+else\b",
    r"\blet'?s\s+move\s+on\b|^\W*moving\s+on\b|\bmoving\s+on\s+to\b",
    r"\bon\s+(?:a\s+different|another)\s+note\b",
    r"\bchang\w*\s+de\s+sujet\b",
    r"\bchangement\s+de\s+sujet\b",
    # "d'autre", and as transcription loses the apostrophe: "d autre", "dautre".
    r"\b(?:parl|pass)\w*\s+(?:à\s+|d['’]?\s*)autre\s+chose\b",
    r"\b(?:nouveau|autre)\s+sujet\b",
    r"\bsujet\s+suivant\b",
    r"\b(?:recommençons|on\s+recommence|reprenons\s+à\s+zéro)\b",
    r"^(?:\W*(?:alors|bon|euh|et|sinon|bref)\W+)*autre\s+chose\b",
    r"\bαλλ[αά]\w*\s+θ[εέ]μα\b",
    r"\bαλλαγ\w*\s+θ[εέ]ματ\w*",
    r"\b(?:νέο|καινούργιο|καινούριο|άλλο|διαφορετικό)\s+θέμα\b",
    r"\bμιλ\w+\s+για\s+κάτι\s+άλλο\b",
    r"\b(?:πάμε|ξεκινάμε|ξεκινήσουμε|ξαναρχίζουμε)\s+από\s+την\s+αρχή\b",
    r"\bcambi\w*\s+de\s+tema\b",
    r"\b(?:otro|nuevo)\s+tema\b",
    r"\bhabl\w+\s+de\s+otra\s+cosa\b",
    r"\b(?:empe[cz]\w*\s+de\s+nuevo|volvamos\s+a\s+empezar)\b",
    r"\b(?:ander\w*|neu\w*)\s+thema\b",
    r"\bthem(?:a|en)wechsel\b",
    r"\b(?:thema\s+wechseln|wechseln\s+wir\s+das\s+thema)\b",
    r"\b(?:reden|sprechen)\s+wir\s+über\s+etwas\s+anderes\b",
    r"\büber\s+etwas\s+anderes\s+(?:reden|sprechen)\b",
    r"\b(?:fangen\s+wir\s+(?:neu|von\s+vorne)\s+an|von\s+vorne)\b",
    r"\bcambi\w*\s+(?:argomento|discorso)\b",
    r"\b(?:nuovo|altro)\s+argomento\b",
    r"\bparliamo\s+(?:d'\s*altro|di\s+altro|di\s+qualcos'\s*altro)\b",
    r"\bricominciamo\b",
    r"\bmud\w*\s+de\s+assunto\b",
    r"\b(?:outro|novo)\s+assunto\b",
    r"\bfal\w+\s+de\s+outra\s+coisa\b",
    r"\b(?:recomeç\w+|começ\w+\s+de\s+novo)\b",
)
_EPISODE_RE: Final = _compile("|".join(f"(?:{part})" for part in _EPISODE_PARTS))
_EPISODE_SEARCH: Final = Search(_EPISODE_RE, map(_compile, _EPISODE_PARTS))


def episode_cue(text: str) -> bool:
    """Return True when the utterance explicitly announces a topic change or a fresh start."""
    if not text:
        return False
    return _announces(_fold_aligned(unicodedata.normalize("NFC", text)))


def _announces(folded: str) -> bool:
    """The episode cue of an utterance's aligned fold (see :func:`episode_cue`)."""
    return _EPISODE_SEARCH(folded)


_BACKCHANNEL_WORDS: Final = _fw(
    "uh um umm uhm hmm hm mm mmm mhm ah aha oh eh er erm huh ok okay k kk yeah yes yep yup "
    "ya yah no nope nah sure right alright cool fine great nice good wow thanks thank cheers "
    "bye hi hello hey indeed exactly totally absolutely true gotcha lol haha ha hehe "
    "oui ouais non bon ben bah euh hein voilà merci super génial parfait bien très "
    "d'accord accord ah bon salut bonjour coucou "
    "ναι όχι εντάξει οκ καλά μάλιστα ακριβώς σωστά ωραία ευχαριστώ α ε εε μμ αχ γεια "
    "vale sí si claro bueno gracias hola perfecto vale genial "
    "ja nein genau gut okay danke klar stimmt naja na hallo tschüss prima "
    "sì certo esatto grazie ciao va bene perfetto "
    "sim não claro obrigado obrigada beleza tá isso olá tchau"
)
_BACKCHANNEL_PHRASES: Final = _phrases(
    "i see|got it|of course|thank you|very good|no problem|sounds good|makes sense|"
    "fair enough|i know|me too|je vois|bien sûr|c'est ça|tout à fait|ah bon|pas de souci|"
    "pas de problème|je sais|moi aussi|va bene|de acuerdo|por supuesto|ya veo|está bien|"
    "muy bien|ach so|alles klar|tudo bem|tá bom|ta bom|com certeza|κατάλαβα|το ξέρω|"
    "φυσικά|και βέβαια"
)
_BACKCHANNEL_PHRASE_SET: Final = frozenset(_BACKCHANNEL_PHRASES)
_HESITATION_RE: Final = re.compile(
    r"^(?:u+h+|u+m+|h+m+|m+h?m+|a+h+|o+h+|e+h+|e+r+m*|e+|a+|ε+|α+|μ+|χμ+|ω+χ|α+χ|ha(?:ha)+|"
    r"he(?:he)+|ja+|ne+|si+|o+k+)$"
)


# The most words a backchannel phrase has: a text with more is not one.
_LONGEST_BACKCHANNEL: Final = max(map(len, _BACKCHANNEL_PHRASES))


def is_meaningful(text: str) -> bool:
    """Return False for fillers, backchannels, tiny fragments and pure punctuation.

    Meaningful speech has a word with a letter, 3 letters or digits in its words (their
    hyphenated parts), a word (part) that is neither a backchannel nor a hesitation, and is
    not a backchannel phrase. The words are read in order until that is certain.
    """
    if not text or not _has_letters(text):
        return False
    letter = _LETTER_RE.search
    findall = _WORD_RE.findall
    hesitation = _HESITATION_RE.match
    words: list[str] = []
    length = 0
    spoken = False  # a word (part) that is neither a backchannel nor a hesitation was read
    for chunk in fold(unicodedata.normalize("NFC", text)).split():
        # A word never spans white space; a chunk of letters and digits is one word.
        for word in (chunk,) if chunk.isalnum() else findall(chunk):
            # A word of letters only has one (no letter is a digit): the expression is for
            # the others.
            if not (word.isalpha() or letter(word)):
                continue
            words.append(word)
            for part in word.split("-") if "-" in word else (word,):
                length += len(part)
                if not spoken and part and part not in _BACKCHANNEL_WORDS and not hesitation(part):
                    spoken = True
            if spoken and length >= 3 and len(words) > _LONGEST_BACKCHANNEL:
                return True
    if not spoken or length < 3:
        return False
    return tuple(words) not in _BACKCHANNEL_PHRASE_SET


_WARNING_RE: Final = _compile(
    r"\b(?:danger\w*|careful|watch\s+out|look\s+out|caution|beware|warning|hazard\w*|"
    r"unsafe|toxic|poison\w*|emergency|don'?t\s+touch|attention|prudence|prudent\w*|"
    r"méfie[sz]?|gare\s+à|toxique|urgence|fais\s+gaffe|προσοχή|κίνδυν\w*|πρόσεχε|προσέξτε|"
    r"επικίνδυν\w*|τοξικ\w*|cuidado|peligro\w*|atención|precaución|ojo\s+con|vorsicht|achtung|"
    r"gefahr|gefährlich\w*|pass\s+auf|warnung|attenzione|pericol\w*|attento|attenta|"
    r"perigo\w*|atenção|cautela)\b"
)
_CORRECTION_RE: Final = _compile(
    r"(?:^\W*(?:(?:wait|well|oh|um+|uh+|so|hmm+|sorry|ok|okay|alors|euh|bon|ah|oh|ε+|"
    r"λοιπόν|pues|bueno|mira|also|na|allora|beh|então|bom|olha)\W+)*(?:actually|correction|no\s*,?\s+(?:it'?s|it\s+is|that'?s|that\s+was|it\s+was|"
    r"they\s+are|he\s+is|she\s+is)|en\s+fait|non\s*,?\s+(?:c'est|ce\s+n'est|il\s+est|elle\s+est)|"
    r"en\s+réalité|στην\s+πραγματικότητα|όχι\s*,?\s+(?:είναι|ήταν)|για\s+την\s+ακρίβεια|"
    r"en\s+realidad|de\s+hecho|no\s*,?\s+(?:es|era|son)\b|eigentlich|tatsächlich|"
    r"nein\s*,?\s+(?:es|das)\s+(?:ist|war)|in\s+realtà|veramente|no\s*,?\s+(?:è|era)\b|"
    r"na\s+verdade|não\s*,?\s+(?:é|era)\b))|"
    r"\b(?:that'?s\s+(?:not\s+(?:right|true|correct)|wrong|incorrect)|not\s+true|"
    r"i\s+meant|c'est\s+faux|ce\s+n'est\s+pas\s+(?:vrai|ça)|je\s+voulais\s+dire|"
    r"δεν\s+είναι\s+(?:σωστό|αλήθεια|έτσι)|λάθος|εννοούσα|eso\s+no\s+es\s+(?:cierto|verdad)|"
    r"quise\s+decir|das\s+stimmt\s+nicht|ich\s+meinte|non\s+è\s+vero|intendevo|"
    r"isso\s+não\s+é\s+verdade|quis\s+dizer)\b"
)
_DECISION_RE: Final = _compile(
    r"\b(?:let'?s\s+go\s+with|we(?:'ve|\s+have)?\s+decided|we'?ll\s+go\s+with|"
    r"we'?re\s+going\s+with|it'?s\s+decided|we\s+agreed|final\s+decision|decision\s+is|"
    r"on\s+part\s+sur|on\s+va\s+partir\s+sur|on\s+a\s+décidé|nous\s+avons\s+décidé|"
    r"c'est\s+décidé|on\s+choisit|va\s+pour|αποφασίσαμε|αποφασίστηκε|συμφωνήσαμε|"
    r"πάμε\s+με|κλείσαμε|decidimos|hemos\s+decidido|vamos\s+con|está\s+decidido|"
    r"quedamos\s+en|wir\s+haben\s+(?:uns\s+)?(?:entschieden|beschlossen)|"
    r"machen\s+wir\s+so|abbiamo\s+deciso|andiamo\s+con|è\s+deciso|optiamo\s+per|"
    r"vamos\s+com|está\s+decidido|ficou\s+decidido)\b"
)
_FACT_RE: Final = _compile(
    r"\b(?:the\s+(?:(?!(?:rest|test|guest|west|nest|request|forest|interest|contest|protest|"
    r"harvest|honest|modest|quest|chest|pest|vest|digest|manifest|arrest|suggest|invest)\b)"
    r"\w{2,}est|most|least|first|only)\b|"
    r"(?:is|was)\s+the\s+capital\s+of|capitale\s+d[eu']|πρωτεύουσα|capital\s+d[eoa]|"
    r"hauptstadt|capitale\s+di|invented\s+by|was\s+invented|founded\s+in|discovered\s+in|"
    r"born\s+in\s+\d|population|(?:le|la|les)\s+plus\s+\w+|(?:le|la)\s+premi(?:er|ère)|"
    r"(?:ο|η|το|οι)\s+πιο\s+\w+|(?:el|la|los|las)\s+más\s+\w+|(?:il|la)\s+più\s+\w+|"
    r"(?:o|a)\s+mais\s+\w+|(?:der|die|das)\s+\w+(?:ste|sten)\b|am\s+\w+sten\b|"
    r"\d+(?:[.,]\d+)?\s*(?:%|percent|per\s+cent|pour\s+cent|por\s+ciento|prozent|"
    r"per\s+cento|por\s+cento|τοις\s+εκατό|million|billion|millions|milliards?|"
    r"millones|millionen|milioni|milhões|εκατομμύρια|km|kilomet\w*|meters|mètres|"
    r"metros|meter|metri|miles)|\b(?:1[0-9]{3}|20[0-9]{2})\b)"
)
_JARGON_RE: Final = _compile(
    r"\b(?:protocol\w*|protokoll\w*|protocole\w*|πρωτόκολλ\w*|algorithm\w*|algorithme\w*|"
    r"algoritm\w*|αλγόριθμ\w*|encrypt\w*|chiffrement|κρυπτογράφ\w*|blockchain|kubernetes|"
    r"quantum|quantique|κβαντικ\w*|cuántic\w*|quanten\w*|quantistic\w*|quântic\w*|"
    r"machine\s+learning|deep\s+learning|neural\s+network|réseau\s+de\s+neurones|"
    r"νευρωνικ\w*|regression|régression|latency|latence|latenz|bandwidth|microservice\w*|"
    r"middleware|hashing|backpropagation|embedding\w*|vector\s+database|"
    r"transformer\s+model|oauth|jwt)\b"
)
_STANDARD_RE: Final = re.compile(r"\b(?:ISO|RFC|IEEE|EN|IEC|DIN|ANSI)\s?\d{2,6}")
_ACRONYM_RE: Final = re.compile(r"\b[^\W\d_]*[A-ZΑ-Ω]{2,}[^\W_]*\b")
_COMMON_ACRONYMS: Final = frozenset(
    {"OK", "TV", "USA", "US", "UK", "EU", "UN", "PM", "AM", "CEO", "PC", "ID", "OKAY", "DJ"}
)


_WARNING_SEARCH: Final = Search(_WARNING_RE)
_CORRECTION_SEARCH: Final = Search(_CORRECTION_RE)
_DECISION_SEARCH: Final = Search(_DECISION_RE)
_STANDARD_SEARCH: Final = Search(_STANDARD_RE)
_JARGON_SEARCH: Final = Search(_JARGON_RE)
_FACT_SEARCH: Final = Search(_FACT_RE)
# Two capitals in a row ("RAG", "OAuth", "ΕΦΚΑ"): an acronym has them (see _has_acronym).
_CAPITALS_RE: Final = re.compile(r"[A-ZΑ-Ω]{2}")


def _has_acronym(text: str) -> bool:
    """Return True for an uppercase acronym or mixed-case technical token (RAG, OAuth, ΕΦΚΑ)."""
    if _CAPITALS_RE.search(text) is None:
        return False  # no token can match _ACRONYM_RE's two capitals in a row
    tokens = _WORD_RE.findall(text)
    letters = [t for t in tokens if _has_letters(t)]
    if not letters:
        return False
    upper = [t for t in letters if t.isupper() and len(t) > 1]
    if len(upper) * 2 > len(letters) and len(letters) > 2:
        return False
    for token in letters:
        if token in _COMMON_ACRONYMS or len(token) > 12:
            continue
        if _ACRONYM_RE.fullmatch(token) and re.search(r"[A-ZΑ-Ω]{2,}", strip_accents(token)):
            return True
    return False


def local_signal(text: str, language: str | None = None) -> str | None:
    """Return a weak local intent hint (warning, correction, decision, definition, fact_check)."""
    del language  # the patterns cover every supported language at once
    if not text or not is_meaningful(text):
        return None
    text = unicodedata.normalize("NFC", text)
    return _intent_hint(text, _fold_aligned(text))


def _intent_hint(text: str, folded: str) -> str | None:
    """The intent hint of meaningful NFC ``text``, ``folded`` its aligned fold."""
    if _WARNING_SEARCH(folded):
        return INTENT_WARNING
    if _CORRECTION_SEARCH(folded):
        return INTENT_CORRECTION
    if _DECISION_SEARCH(folded):
        return INTENT_DECISION
    if _has_acronym(text) or _STANDARD_SEARCH(text) or _JARGON_SEARCH(folded):
        return INTENT_DEFINITION
    if _FACT_SEARCH(folded):
        return INTENT_FACT_CHECK
    return None
