"""nbgrader's exchange on the course hub, which classroom/nbgrader_config.py sets from the environment the hub gives:

- COURSE_EXCHANGE: nbgrader's exchange folder on the server's disk, with its own submit, which closes each hand-in to its
  learner. nbgrader's default submit leaves a hand-in's folder open to all (0777) and its files readable by all (0644),
  hidden only by a random name in an inbound folder learners cannot list (nbgrader issue 978): a learner who learns
  the name reads and changes another's work, and its submission secret, which names the feedback. Here a hand-in is
  closed as soon as nbgrader has written it: its learner and the instructors' group (inbound's, by its setgid bit).
- COURSE_NGSHARE: the exchange as the hub service ngshare (its URL), through its nbgrader plugin (ngshare-exchange);
  each call carries the caller's hub token, and ngshare lets a learner reach their own hand-ins and feedback alone."""
import os

from nbgrader.exchange.default.submit import ExchangeSubmit


class PrivateSubmit(ExchangeSubmit):
    def copy_files(self):
        super().copy_files()
        for folder, _, files in os.walk(os.path.join(self.inbound_path, self.assignment_filename)):
            os.chmod(folder, 0o2770)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o660)


def configure(c, environ):
    if environ.get("COURSE_NGSHARE"):
        import ngshare_exchange
        ngshare_exchange.configureExchange(c, environ["COURSE_NGSHARE"])
    else:
        c.Exchange.root = environ["COURSE_EXCHANGE"]
        c.ExchangeFactory.submit = PrivateSubmit
