"""What Assist says in Greek, and its router prompt in Greek."""

from __future__ import annotations

from typing import Final

from ..phrasebook import Phrasebook


def spoken_time(hour: int, minute: int) -> str:
    """Say a wall-clock time: "7:30", "19:00"."""
    return f"{hour}:{minute:02d}"


PHRASEBOOK: Final = Phrasebook(
    sentences={
        "fallback_invalid": "Συγγνώμη, δεν κατάλαβα καλά. Μπορείτε να το πείτε αλλιώς;",
        "model_unavailable": (
            "Συγγνώμη, δεν μπορώ να σκεφτώ αυτή τη στιγμή. Δοκιμάστε ξανά σε λίγο."
        ),
        "alarm_set": "Εντάξει, το ξυπνητήρι θα χτυπήσει στις {time}.",
        "alarm_set_where": "Έγινε, το ξυπνητήρι θα χτυπήσει στις {time} στο {speaker}.",
        "alarm_set_nowhere": (
            "Το σημείωσα για τις {time}, αλλά κανένα ηχείο δεν μπορεί να το παίξει: επιλέξτε "
            "ένα στις ρυθμίσεις του HomeBuddy Proactive, στην ενότητα Assist."
        ),
        "ring_stopped": "Εντάξει, σταματάω.",
        "ring_snoozed": "Εντάξει, θα χτυπήσει ξανά σε {minutes} λεπτά.",
        "ring_nothing": "Τίποτα δεν χτυπάει αυτή τη στιγμή.",
        "ring_failed_title": "HomeBuddy: ένα ξυπνητήρι ή μια υπενθύμιση δεν ακούστηκε",
        "ring_failed_no_speaker": (
            "Δεν έχει επιλεγεί ηχείο για ξυπνητήρια και υπενθυμίσεις "
            "(HomeBuddy Proactive → Ρύθμιση → Assist)."
        ),
        "ring_failed_speaker": "Το {speaker} δεν μπόρεσε να το πει ({error}).",
        "reminder_set_where": "Θα σας το θυμίσω {when}: {what}. Θα το πω στο {speaker}.",
        "reminder_set_nowhere": (
            "Θα σας το θυμίσω {when}: {what}. Αλλά κανένα ηχείο δεν μπορεί να το πει: επιλέξτε "
            "ένα στις ρυθμίσεις του HomeBuddy Proactive, στην ενότητα Assist."
        ),
        "reminder_ringing": "Υπενθύμιση: {what}.",
        "reminder_late": "Καθυστερημένη υπενθύμιση, για τις {time}: {what}.",
        "reminder_saved": "Το σημείωσα, θα το θυμάμαι: {what}.",
        "when_morning": "σήμερα το πρωί στις {time}",
        "when_afternoon": "σήμερα το απόγευμα στις {time}",
        "when_evening": "απόψε στις {time}",
        "when_tomorrow": "αύριο στις {time}",
        "when_day": "την {day} στις {time}",
        "when_daily": "κάθε μέρα στις {time}",
        "when_weekly": "κάθε {day} στις {time}",
        "when_date": "στις {date} στις {time}",
        "weekdays": "Δευτέρα,Τρίτη,Τετάρτη,Πέμπτη,Παρασκευή,Σάββατο,Κυριακή",
        "reminder_scheduled": "Θα σας το θυμίσω {when}: {what}.",
        "alarm_exists": "Έχετε ήδη ξυπνητήρι στις {time}.",
        "alarm_ringing": "Είναι {time}. Ώρα για το ξυπνητήρι σας.",
        "alarm_ask_time": "Τι ώρα να χτυπήσει το ξυπνητήρι;",
        "alarm_failed": "Δεν μπόρεσα να αποθηκεύσω αυτό το ξυπνητήρι.",
        "alarm_none": "Δεν έχετε κανένα ξυπνητήρι.",
        "alarm_list_one": "Έχετε ένα ξυπνητήρι, στις {times}.",
        "alarm_list_many": "Έχετε {count} ξυπνητήρια: {times}.",
        "alarm_cancelled": "Έγινε, το ξυπνητήρι στις {times} ακυρώθηκε.",
        "alarm_not_found": "Δεν βρίσκω ξυπνητήρι στις {time}.",
        "alarm_which": "Έχετε {count} ξυπνητήρια: {times}. Ποιο να ακυρώσω;",
        "memory_saved": "Εντάξει, θα το θυμάμαι.",
        "memory_failed": "Δεν μπόρεσα να το θυμηθώ.",
        "memory_recall": "Να τι ξέρω για {subject}: {facts}",
        "affect_fall": (
            "Ωχ, όχι! Πάρτε τον χρόνο σας και μη σηκωθείτε απότομα. Αν χτυπήσατε, καλέστε το 112."
        ),
        "affect_pain": (
            "Λυπάμαι που πονάτε. Αν ο πόνος είναι δυνατός ή ασυνήθιστος, καλέστε τον γιατρό σας."
        ),
        "affect_loneliness": (
            "Είμαι εδώ μαζί σας. "
            "Θέλετε να μιλήσουμε λίγο ή να τηλεφωνήσετε σε κάποιον αγαπημένο σας;"
        ),
        "affect_fear": "Είμαι εδώ. Αναπνεύστε αργά και πείτε μου τι σας ανησυχεί.",
        "affect_sadness": "Λυπάμαι που νιώθετε έτσι. Είμαι εδώ αν θέλετε να μιλήσουμε.",
        "memory_recall_any": "Να τι θυμάμαι: {facts}",
        "memory_nothing": "Δεν ξέρω ακόμα τίποτα για {subject}.",
        "memory_nothing_any": "Δεν έχω κρατήσει τίποτα ακόμα.",
        "memory_api_name": "Μνήμη HomeBuddy",
        "memory_api_prompt": (
            "Μπορείτε να χρησιμοποιήσετε τη μνήμη HomeBuddy του ατόμου με το οποίο μιλάτε. Πριν "
            "πείτε ότι δεν ξέρετε κάτι για το ίδιο, την οικογένειά του, τα ραντεβού του ή τις "
            "προτιμήσεις του, αναζητήστε το με το {recall}. Όταν σας λέει ένα μόνιμο "
            "γεγονός για τον εαυτό του και ζητά να το κρατήσετε, αποθηκεύστε το με το "
            "{remember}. Για υπενθυμίσεις, εργασίες και ξυπνητήρια, χρησιμοποιήστε το "
            "{reminders}. Μην επινοείτε ποτέ μια ανάμνηση. Απαντήστε στα ελληνικά."
        ),
        "service_done": "Έγινε: {names}.",
        "service_need_target": "Ποια συσκευή να χειριστώ;",
        "service_not_found": "Δεν βρίσκω «{name}» στις συσκευές που μπορώ να χειριστώ.",
        "service_not_allowed": "Δεν επιτρέπεται να χειριστώ {names}.",
        "service_unsupported": "Δεν ξέρω να το κάνω αυτό.",
        "service_rate_limited": (
            "Έχω ήδη κάνει πολλές ενέργειες αυτό το λεπτό. Περιμένετε λίγο, παρακαλώ."
        ),
        "service_failed": "Δεν κατάφερα να χειριστώ {names}.",
        "confirm_question": "Θέλετε σίγουρα να {action} {names};",
        "confirm_declined": "Εντάξει, δεν κάνω τίποτα.",
        "weather_not_configured": (
            "Δεν έχει επιλεγεί υπηρεσία καιρού στις ρυθμίσεις του HomeBuddy."
        ),
        "weather_unavailable": "Ο καιρός δεν είναι διαθέσιμος αυτή τη στιγμή.",
        "weather_now": "Αυτή τη στιγμή: {condition}, {temperature} βαθμοί.",
        "weather_now_no_temperature": "Αυτή τη στιγμή: {condition}.",
        "weather_today": "Σήμερα, από {low} έως {high} βαθμούς.",
        "weather_tomorrow": "Αύριο: {condition}, από {low} έως {high} βαθμούς.",
        "weather_tomorrow_short": "Αύριο: {condition}.",
        "news_not_configured": ("Δεν έχει επιλεγεί πηγή ειδήσεων στις ρυθμίσεις του HomeBuddy."),
        "news_unavailable": ("Δεν μπορώ να συνδεθώ με την πηγή ειδήσεων. Δοκιμάστε αργότερα."),
        "news_empty": "Η πηγή ειδήσεων δεν έχει τίτλους αυτή τη στιγμή.",
        "news_headlines": "Οι τίτλοι των ειδήσεων. {headlines}",
    },
    action_verbs={
        ("lock", True): "κλειδώσω",
        ("lock", False): "ξεκλειδώσω",
        ("cover", True): "ανοίξω",
        ("cover", False): "κλείσω",
        ("valve", True): "ανοίξω",
        ("valve", False): "κλείσω",
        ("alarm_control_panel", True): "οπλίσω",
        ("alarm_control_panel", False): "αφοπλίσω",
        ("", True): "ανάψω",
        ("", False): "σβήσω",
        ("", None): "ρυθμίσω",
    },
    conditions={
        "clear-night": "καθαρός ουρανός",
        "cloudy": "συννεφιά",
        "exceptional": "ακραίος καιρός",
        "fog": "ομίχλη",
        "hail": "χαλάζι",
        "lightning": "καταιγίδες",
        "lightning-rainy": "καταιγίδες με βροχή",
        "partlycloudy": "λίγα σύννεφα",
        "pouring": "δυνατή βροχή",
        "rainy": "βροχή",
        "snowy": "χιόνι",
        "snowy-rainy": "χιονόνερο",
        "sunny": "λιακάδα",
        "windy": "αέρας",
        "windy-variant": "αέρας και σύννεφα",
    },
    and_word="και",
    spoken_time=spoken_time,
    router_prompt={
        "intro": (
            "Είσαι ο HomeBuddy, ο ευγενικός φωνητικός βοηθός ενός ηλικιωμένου ανθρώπου, στο "
            "σπίτι του. Λαμβάνεις ό,τι μόλις είπε (μεταγραμμένο, μερικές φορές ατελώς) και "
            "απαντάς ΜΟΝΟ με ένα αντικείμενο JSON σύμφωνο με το σχήμα, επιλέγοντας μία "
            "εντολή:"
        ),
        "language": ("Απάντα στα ελληνικά, με σύντομες, απλές και ζεστές προτάσεις."),
        "now": "Σήμερα είναι {now}.",
        "memories": "Τι ξέρεις για αυτόν τον άνθρωπο:",
        "episode": "Περίληψη της πρόσφατης συζήτησης:",
        "devices": "Συσκευές που μπορείς να χειριστείς:",
    },
)
