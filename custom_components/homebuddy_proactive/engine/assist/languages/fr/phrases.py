"""What Assist says in French, and its router prompt in French."""

from __future__ import annotations

from typing import Final

from ..phrasebook import Phrasebook


def spoken_time(hour: int, minute: int) -> str:
    """Say a wall-clock time: "7 heures 30", "midi", "1 heure 05"."""
    if (hour, minute) == (12, 0):
        return "midi"
    if (hour, minute) == (0, 0):
        return "minuit"
    unit = "heure" if hour in (0, 1) else "heures"
    return f"{hour} {unit}" if minute == 0 else f"{hour} {unit} {minute:02d}"


PHRASEBOOK: Final = Phrasebook(
    sentences={
        "fallback_invalid": ("Pardon, je n'ai pas bien compris. Pouvez-vous le redire autrement ?"),
        "model_unavailable": (
            "Désolé, je n'arrive pas à réfléchir pour le moment. Réessayez dans un instant."
        ),
        "alarm_set": "C'est noté, l'alarme sonnera à {time}.",
        "alarm_set_where": "C'est noté, l'alarme sonnera à {time} sur {speaker}.",
        "alarm_set_nowhere": (
            "C'est noté pour {time}, mais aucun haut-parleur ne pourra la faire entendre : "
            "choisissez-en un dans les options de HomeBuddy Proactive, rubrique Assist."
        ),
        "ring_stopped": "D'accord, j'arrête.",
        "ring_snoozed": "D'accord, je sonne à nouveau dans {minutes} minutes.",
        "ring_nothing": "Rien ne sonne en ce moment.",
        "ring_failed_title": "HomeBuddy : une alarme ou un rappel n'a pas été entendu",
        "ring_failed_no_speaker": (
            "Aucun haut-parleur n'est choisi pour les alarmes et les rappels "
            "(HomeBuddy Proactive → Configurer → Assist)."
        ),
        "ring_failed_speaker": "{speaker} n'a pas pu le dire ({error}).",
        "reminder_set_where": "Je vous le rappellerai {when} : {what}. Je le dirai sur {speaker}.",
        "reminder_set_nowhere": (
            "Je vous le rappellerai {when} : {what}. Mais aucun haut-parleur ne pourra le dire : "
            "choisissez-en un dans les options de HomeBuddy Proactive, rubrique Assist."
        ),
        "reminder_ringing": "Rappel : {what}.",
        "reminder_late": "Rappel en retard, prévu à {time} : {what}.",
        "reminder_saved": "C'est noté, je m'en souviendrai : {what}.",
        "when_morning": "ce matin à {time}",
        "when_afternoon": "cet après-midi à {time}",
        "when_evening": "ce soir à {time}",
        "when_tomorrow": "demain à {time}",
        "when_day": "{day} à {time}",
        "when_daily": "tous les jours à {time}",
        "when_weekly": "chaque {day} à {time}",
        "when_date": "le {date} à {time}",
        "weekdays": "lundi,mardi,mercredi,jeudi,vendredi,samedi,dimanche",
        "reminder_scheduled": "Je vous le rappellerai {when} : {what}.",
        "alarm_exists": "Vous avez déjà une alarme à {time}.",
        "alarm_ringing": "Il est {time}. C'est l'heure de votre alarme.",
        "alarm_ask_time": "À quelle heure voulez-vous l'alarme ?",
        "alarm_failed": "Je n'ai pas pu enregistrer cette alarme.",
        "alarm_none": "Vous n'avez aucune alarme.",
        "alarm_list_one": "Vous avez une alarme, à {times}.",
        "alarm_list_many": "Vous avez {count} alarmes : {times}.",
        "alarm_cancelled": "C'est annulé : plus d'alarme à {times}.",
        "alarm_not_found": "Je ne trouve pas d'alarme à {time}.",
        "alarm_which": ("Vous avez {count} alarmes : {times}. Laquelle faut-il annuler ?"),
        "memory_saved": "C'est noté, je m'en souviendrai.",
        "memory_failed": "Je n'ai pas pu retenir cela.",
        "memory_recall": "Voici ce que je sais sur {subject} : {facts}",
        "affect_fall": (
            "Oh non ! Prenez votre temps et ne vous relevez pas trop vite. "
            "Si vous vous êtes fait mal, appelez le 112."
        ),
        "affect_pain": (
            "Je suis désolé que vous ayez mal. "
            "Si la douleur est forte ou inhabituelle, appelez votre médecin."
        ),
        "affect_loneliness": (
            "Je suis là avec vous. "
            "Voulez-vous que nous parlions un peu, ou appeler quelqu'un qui vous est cher ?"
        ),
        "affect_fear": "Je suis là. Respirez doucement, et dites-moi ce qui vous inquiète.",
        "affect_sadness": (
            "Je suis désolé que vous vous sentiez comme ça. Je suis là si vous voulez en parler."
        ),
        "memory_recall_any": "Voici ce dont je me souviens : {facts}",
        "memory_nothing": "Je ne sais encore rien sur {subject}.",
        "memory_nothing_any": "Je n'ai encore rien retenu.",
        "memory_api_name": "Mémoire HomeBuddy",
        "memory_api_prompt": (
            "Vous pouvez utiliser la mémoire HomeBuddy de la personne à qui vous parlez. Avant de "
            "dire que vous ne savez rien d'elle, de sa famille, de ses rendez-vous ou de ses "
            "préférences, cherchez avec {recall}. Quand elle vous dit un fait durable sur "
            "elle et vous demande de le garder, enregistrez-le avec {remember}. Pour ses "
            "rappels, tâches et réveils, utilisez {reminders}. N'inventez jamais un souvenir. "
            "Répondez en français."
        ),
        "service_done": "C'est fait : {names}.",
        "service_need_target": "Quel appareil voulez-vous que je commande ?",
        "service_not_found": (
            "Je ne trouve pas « {name} » parmi les appareils que je peux commander."
        ),
        "service_not_allowed": "Je n'ai pas le droit de commander {names}.",
        "service_unsupported": "Je ne sais pas faire cette commande.",
        "service_rate_limited": (
            "J'ai déjà fait beaucoup de commandes cette minute. Attendez un peu, s'il vous plaît."
        ),
        "service_failed": "Je n'ai pas réussi à commander {names}.",
        "confirm_question": "Voulez-vous vraiment {action} {names} ?",
        "confirm_declined": "D'accord, je ne fais rien.",
        "weather_not_configured": "Aucune météo n'est choisie dans les options de HomeBuddy.",
        "weather_unavailable": "La météo n'est pas disponible pour le moment.",
        "weather_now": "En ce moment : {condition}, {temperature} degrés.",
        "weather_now_no_temperature": "En ce moment : {condition}.",
        "weather_today": "Aujourd'hui, entre {low} et {high} degrés.",
        "weather_tomorrow": "Demain : {condition}, entre {low} et {high} degrés.",
        "weather_tomorrow_short": "Demain : {condition}.",
        "news_not_configured": (
            "Aucune source d'actualités n'est choisie dans les options de HomeBuddy."
        ),
        "news_unavailable": (
            "Je n'arrive pas à joindre la source d'actualités. Réessayez plus tard."
        ),
        "news_empty": "La source d'actualités n'a aucun titre pour le moment.",
        "news_headlines": "Voici les titres. {headlines}",
    },
    action_verbs={
        ("lock", True): "verrouiller",
        ("lock", False): "déverrouiller",
        ("cover", True): "ouvrir",
        ("cover", False): "fermer",
        ("valve", True): "ouvrir",
        ("valve", False): "fermer",
        ("alarm_control_panel", True): "armer",
        ("alarm_control_panel", False): "désarmer",
        ("", True): "allumer",
        ("", False): "éteindre",
        ("", None): "régler",
    },
    conditions={
        "clear-night": "nuit claire",
        "cloudy": "nuageux",
        "exceptional": "temps exceptionnel",
        "fog": "brouillard",
        "hail": "grêle",
        "lightning": "orages",
        "lightning-rainy": "orages et pluie",
        "partlycloudy": "partiellement nuageux",
        "pouring": "fortes pluies",
        "rainy": "pluie",
        "snowy": "neige",
        "snowy-rainy": "pluie et neige",
        "sunny": "ensoleillé",
        "windy": "venteux",
        "windy-variant": "venteux et nuageux",
    },
    and_word="et",
    spoken_time=spoken_time,
    router_prompt={
        "intro": (
            "Tu es HomeBuddy, l'assistant vocal bienveillant d'une personne âgée, dans sa "
            "maison. Tu reçois ce qu'elle vient de dire (transcrit, parfois imparfait) et tu "
            "réponds UNIQUEMENT par un objet JSON conforme au schéma, qui choisit une "
            "commande :"
        ),
        "language": ("Réponds en français, avec des phrases courtes, simples et chaleureuses."),
        "now": "Nous sommes le {now}.",
        "memories": "Ce que tu sais de cette personne :",
        "episode": "Résumé de la conversation récente :",
        "devices": "Appareils que tu peux commander :",
    },
)
