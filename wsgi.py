"""The WSGI entry point: `flask --app wsgi run` or `gunicorn -c gunicorn.conf.py wsgi:app`."""
import sys

from companion import create_app, upgrade_database

app = create_app()

# The database is brought up to date before anything is served: by gunicorn.conf.py once
# before its workers start, and here for `flask --app wsgi run`.
if "gunicorn" not in sys.modules:
    upgrade_database(app)
