"""Reads an iMIP message as mail clients do, for coolcal's tests.

    read_reply.py MESSAGE

Prints JSON: the header names in order, the headers coolcal sets (decoded by
Python's `email` package), each part's content type, parameters, transfer encoding
and decoded text, and what Python's `icalendar` reads in the text/calendar part.
"""
import email
import email.policy
import json
import sys

import icalendar


def main():
    with open(sys.argv[1], "rb") as f:
        message = email.message_from_binary_file(f, policy=email.policy.default)
    wanted = ["From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References", "MIME-Version", "Bcc", "Cc"]
    result = {
        "header_names": list(message.keys()),
        "headers": {name: (str(message[name]) if message[name] is not None else None) for name in wanted},
        "from_address": message["From"].addresses[0].addr_spec if message["From"] else None,
        "from_name": message["From"].addresses[0].display_name if message["From"] else None,
        "to_address": [a.addr_spec for a in message["To"].addresses] if message["To"] else [],
        "to_name": message["To"].addresses[0].display_name if message["To"] else None,
        "content_type": message.get_content_type(),
        "defects": [type(d).__name__ for d in message.defects],
        "parts": [],
    }
    for part in message.iter_parts():
        entry = {
            "content_type": part.get_content_type(),
            "params": dict(part["Content-Type"].params),
            "encoding": part.get("Content-Transfer-Encoding"),
            "text": part.get_content(),
            "defects": [type(d).__name__ for d in part.defects],
        }
        if part.get_content_type() == "text/calendar":
            calendar = icalendar.Calendar.from_ical(part.get_content())
            events = []
            for event in calendar.walk("VEVENT"):
                attendees = event.get("ATTENDEE")
                if attendees is None:
                    attendees = []
                elif not isinstance(attendees, list):
                    attendees = [attendees]
                rid = event.get("RECURRENCE-ID")
                events.append({
                    "uid": str(event.get("UID")),
                    "sequence": int(event.get("SEQUENCE", 0)),
                    "recurrence_id": rid.dt.isoformat() if rid is not None else None,
                    "summary": str(event.get("SUMMARY")) if event.get("SUMMARY") is not None else None,
                    "attendees": [{"address": str(a), "partstat": a.params.get("PARTSTAT"), "cn": a.params.get("CN")}
                                  for a in attendees],
                    "comment": str(event.get("COMMENT")) if event.get("COMMENT") is not None else None,
                })
            entry["calendar"] = {"method": str(calendar.get("METHOD")), "events": events}
        result["parts"].append(entry)
    json.dump(result, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
