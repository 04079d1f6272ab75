"""Portuguese rules: when a spoken Portuguese clause asks a question, and which Portuguese requests
are reminders or tasks.

The surface every language module shares: ``is_question(body)`` (a clause after its fillers
were stripped), ``FILLERS``, ``TAGS`` (tag questions such as "right?"), ``CAPTURE_RULES``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Final

from ..normalize import folded_words as _fw
from ..segment import _Body, _fillers, _phrases, _starts
from .base import KIND_REMINDER, KIND_TASK, _CaptureRule, _rule
from .common import _EXCLAMATIVE, _clitic_request, _possible_if
from .romance import (
    _HOW_MUCH,
    _degree_exclamative,
    _how_exclamative,
    _pt_future_subj,
    _romance_when,
    _skip_topic,
    _verb_before_article,
)

_PT_ARTICLES: Final = _fw("o a os as um uma uns umas")
_PT_TOPICS: Final = _fw("agora depois hoje amanhã então você vocês tu e")


_PT_FILLERS: Final = _fillers(
    "então entao bom bem olha olhe e mas ok okay tipo pois né enfim ah desculpa desculpe ei oi "
    "hey uh uhm ehm eh"
)
_PT_PRONOUNS: Final = _fw("eu tu você voce ele ela nós nos vocês voces eles elas")
_PT_CLITICS: Final = _fw("me te se nos lhe o a")
_PT_MODALS: Final = _fw(
    "posso devo tenho vou podemos devemos temos vamos pode deve tem vai preciso precisa "
    "consigo conseguimos quer querem"
)
_PT_IMPERFECT_RE: Final = re.compile(
    r"^(?:era|eras|éramos|eramos|eram|tinha|tinhamos)$|"
    r"(?:ava|avas|ávamos|avamos|avam|ia|ias|íamos|iamos|iam)$"
)
_PT_COPULA_RAW: Final = frozenset({"é", "foi", "era"})
_PT_VERBS_RAW: Final = frozenset(
    {
        "é",
        "são",
        "foi",
        "tem",
        "têm",
        "há",
        "faz",
        "fazes",
        "está",
        "estás",
        "estão",
        "quer",
        "queres",
        "acha",
        "achas",
        "aconteceu",
        "houve",
        "significa",
        "custa",
        "custam",
        "vai",
        "vais",
        "vamos",
        "pode",
        "posso",
        "devo",
        "fica",
        "ficam",
        "se",
        "me",
        "te",
    }
)
_PT_HOW_STATEMENT: Final = _fw(
    "disse dizia falei falava sabe sabes sabem sempre combinado quiser queira quiserem "
    "siempre dije dijiste dijo "
    "quieras quiera quieran digas diga digan prefieras prefiera "
    "previsto de costume"
)
_PT_WH_ALWAYS: Final = _fw("quem qual quais quanto quanta quantos quantas porquê")
_PT_FEASIBLE: Final = _phrases(
    "você acha que|voce acha que|acha que|tu achas que|achas que|gostaria de saber|"
    "queria saber|vocês sabem|vocês podem|vocês acham que|"
    "posso|pode|podes|podemos|poderia|poderias|poderíamos|você pode|voce pode|"
    "você poderia|voce poderia|tu podes|tu poderias|será que|sera que|dá para|da para|"
    "dá pra|da pra|tem como|sabe|sabes|você sabe|voce sabe|queres|você quer|voce quer|"
    "você tem|voce tem|tens|me pode|pode me|me ajuda|me diz|me diga|me fala|me pergunto|"
    "pergunto-me|eu me pergunto|é possível|seria possível|há algum|tem algum|existe algum|"
    "você viu|viste|se importa|você se importa|quer|vocês querem|podia|podias|podíamos|"
    "me podia|me podias|você podia|tu podias|podes me|me podes|tem alguma|tem alguém|"
    "há alguma|há alguém|existe alguma|tens algum|tens alguma|tem ideia|tens ideia|"
    "você tem ideia|daria para|daria pra|dava para|dava pra|seria possível|tem problema se|"
    "pergunto me|se importaria|você se importaria|voce se importaria|importas te|importa se|"
    "te importas|se importava|você se importava|importava se|importavas te"
)
_PT_FEASIBLE_BLOCK: Final = _fw("ser que chover razão")
_PT_ENCLITICS: Final = _fw("me te se nos vos lhe lhes o a os as lo la los las")
_PT_SET_PHRASES: Final = _phrases("pode deixar|pode crer|podes crer|podes deixar|pode ser")
_PT_SET_PHRASE_TAIL: Final = _fw("que comigo isso amigo tranquilo")
_PT_SAY: Final = _fw("diz dizem dizes diziam falou falam dizia dice dicen decía")
_PT_PREPOSITIONS: Final = _fw("a de em com para por até desde")
_PT_WH_ANY: Final = _fw("que quem onde quando como quanto quanta quantos quantas qual quais")
_PT_TAGS: Final = frozenset(
    {("né",), ("não",), ("certo",), ("não", "é"), ("nao",), ("ne",), ("verdade",)}
)


def is_question(body: _Body) -> bool:
    """Portuguese spoken-question rules."""
    words, raw = body.words, body.raw
    if not words:
        return False
    if body.words[:2] == ("com", "licenca") and len(body.words) > 2:
        body = dataclasses.replace(body, words=body.words[2:], raw=body.raw[2:], orig=body.orig[2:])
    body = _skip_topic(body, _PT_TOPICS, _PT_TOPIC_TARGETS)
    words, raw = body.words, body.raw
    if raw[0] == "porque" and words[1:3] == ("e", "que"):
        return True  # "porque é que não vieste"
    if raw[0] == "por" and words[1:2] == ("que",):
        return True
    if (
        len(words) > 1
        and (words[0] in _PT_PREPOSITIONS or raw[0] == "há")
        and (words[1] in _PT_WH_ANY and (raw[0] != "há" or words[1].startswith("quant")))
    ):
        words = words[1:]
        body = dataclasses.replace(body, words=words, raw=body.raw[1:], orig=body.orig[1:])
        raw = body.raw
    first = words[0]
    rest = list(words[1:])
    if first == "o" and rest[:1] == ["que"]:
        return not any(w in _PT_COPULA_RAW for w in raw[3:])
    if raw[0] == "por" and rest[:1] == ["que"]:
        return True
    if raw[0] == "porquê" or (first in _PT_WH_ALWAYS and raw[0] != "porque"):
        return not (first in _HOW_MUCH and _degree_exclamative(rest))
    if first == "que":
        if not rest or rest[0] in _PT_PRONOUNS:
            return False
        if rest[0] in _EXCLAMATIVE or (
            rest[-1] in _EXCLAMATIVE and not any(w in _PT_VERBS_RAW for w in raw[1:])
        ):
            return False  # "que dia lindo"
        if (
            rest[1:2]
            and rest[1] in {"mais", "mas", "tao", "tan"}
            and not any(w in _PT_VERBS_RAW for w in raw[1:])
        ):
            return False  # "que dia mais longo", "qué día más largo"
        if rest[0] in {"tal", "horas", "hora", "dia"} or any(w in _PT_VERBS_RAW for w in raw[1:5]):
            return True
        return _verb_before_article(rest, _PT_ARTICLES)
    if first in {"onde", "aonde"}:
        if rest and _PT_IMPERFECT_RE.search(rest[0]):
            return False
        if rest[:1] == ["eu"] and len(rest) > 1:
            return rest[1] in _PT_MODALS
        index = 1 if rest[:1] and rest[0] in _PT_PRONOUNS else 0
        return not (len(rest) > index and _pt_future_subj(rest[index]))  # "onde você for"
    if first == "quando":
        return _romance_when(rest, _PT_PRONOUNS, _PT_CLITICS, _PT_MODALS, _PT_IMPERFECT_RE)
    if first == "como":
        if not rest:
            return True
        if rest[0] == "se" and len(rest) > 1 and not rest[1].endswith(("sse", "ssem")):
            return True  # "como se diz", "como se chama"
        index = 0
        while index < len(rest) - 1 and (rest[index] in _PT_PRONOUNS or rest[index] in _PT_CLITICS):
            index += 1
        verb = rest[index]
        if verb in _PT_HOW_STATEMENT or _PT_IMPERFECT_RE.search(verb) or _pt_future_subj(verb):
            return False
        if _how_exclamative(rest):
            return False
        if verb in _PT_SAY and len(rest) > index + 1:
            return False  # "como diz o meu pai"
        return not (rest[0] == "se" and len(rest) > 1 and rest[1].endswith(("sse", "ssem")))
    if _clitic_request(words) and not body.answered:
        return True
    return _pt_feasible(words, body.answered)


_PT_MIND: Final = _fw("importas importaria importava importavas")


def _pt_feasible(words: Sequence[str], answered: bool) -> bool:
    """Portuguese feasibility and request forms, with enclitics split ("pode-me dizer")."""
    if answered:
        return False
    if any("-" in word for word in words):
        split: list[str] = []
        for word in words:
            head, _, tail = word.partition("-")
            split.extend((head, tail) if head and tail in _PT_ENCLITICS else (word,))
        words = split
    fixed = _starts(words, _PT_SET_PHRASES)
    if fixed and (len(words) == fixed or words[fixed] in _PT_SET_PHRASE_TAIL):
        return False
    feasible = _starts(words, _PT_FEASIBLE)
    if not feasible or _possible_if(words, feasible):
        return False
    following = words[feasible : feasible + 1]
    if set(words[:feasible]) & _PT_MIND:
        return True  # "importas-te que eu abra a janela"
    if following and following[0] == "dizer" and words[feasible - 1].startswith("quer"):
        return False  # "quer dizer" = "that is"
    return not following or following[0] not in _PT_FEASIBLE_BLOCK


CAPTURE_RULES: Final[tuple[_CaptureRule, ...]] = (
    _rule(
        KIND_REMINDER,
        r"(?:(?:pode|podes|poderia|você\s+pode)\s+)?(?:me\s+lembr(?:a|e|ar)|lembra[\s-]*me|"
        r"lembre[\s-]*me|me\s+recorda)\s+(?:de\s+|que\s+|da\s+|do\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        r"não\s+(?:me\s+)?deix(?:e|a)\s+(?:eu\s+)?esquecer\s+(?:de\s+|que\s+)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"não\s+(?:(?:se|te)\s+)?esque(?:ça|ças|çam|ce|cer)\s+(?:de\s+|que\s+)(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:eu\s+)?não\s+(?:posso|podemos|devo|devemos)\s+(?:me\s+)?esquecer(?:-me)?\s+"
        r"(?:de\s+|que\s+)(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"(?:lembra-te|lembre-se)\s+(?:de\s+|que\s+)(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"(?:tenho|preciso)\s+(?:que\s+|de\s+)?(?:me\s+)?lembrar\s+(?:de\s+|que\s+)(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:cria|crie|coloca|coloque|põe|ponha|adiciona|adicione)\s+(?:um\s+)?lembrete\s+"
        r"(?:para\s+|de\s+|que\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:adiciona|adicione|coloca|coloque|põe|ponha|bota|acrescenta|acrescente)\s+"
        r"(?P<c>.+?)\s+(?:na|à|a|em)\s+(?:minha\s+|nossa\s+)?(?P<l>lista(?:\s+de\s+\w+)?)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:eu\s+)?(?:tenho\s+que|tenho\s+de|devo|temos\s+que|temos\s+de|devemos)\s+"
        r"(?P<c>.+)",
        task=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:eu\s+)?(?:preciso|precisamos)(?:\s+de)?\s+(?P<c>\w+(?:ar|er|ir)\b.*)",
        task=True,
    ),
)

FILLERS: Final = _PT_FILLERS
TAGS: Final = _PT_TAGS


# Unions the rules above read, made once.
_PT_TOPIC_TARGETS: Final = (_PT_WH_ANY | _fw("o por")) - {"que"}
