"""A real SMTP server for coolcal's mail tests (aiosmtpd, on 127.0.0.1).

    smtp_sink.py PORT DIR [DROP]

Every message received is written to DIR/N.eml (the DATA as received, bytes) with
its envelope in DIR/N.json ({"from": ..., "to": [...]}); each file appears whole
(written under a temporary name, then renamed). Runs until killed.

With DROP, the first DROP messages are not taken: after their DATA the server closes
the connection without an answer (a server that crashed or a link that dropped), and
each such drop is counted in DIR/dropped.
"""
import json
import os
import sys
import time

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, directory, drop):
        self.directory = directory
        self.count = 0
        self.drop = drop
        self.dropped = 0

    async def handle_DATA(self, server, session, envelope):
        if self.dropped < self.drop:
            self.dropped += 1
            with open(os.path.join(self.directory, "dropped"), "w") as f:
                f.write(str(self.dropped))
            server.transport.abort()
            return "421 dropped"
        self.count += 1
        base = os.path.join(self.directory, str(self.count))
        for suffix, data in ((".json", json.dumps({"from": envelope.mail_from, "to": envelope.rcpt_tos}).encode()),
                             (".eml", envelope.original_content)):
            with open(base + suffix + ".tmp", "wb") as f:
                f.write(data)
            os.rename(base + suffix + ".tmp", base + suffix)
        return "250 OK"


def main():
    port, directory = int(sys.argv[1]), sys.argv[2]
    drop = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    os.makedirs(directory, exist_ok=True)
    controller = Controller(Sink(directory, drop), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
