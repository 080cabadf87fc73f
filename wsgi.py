"""The WSGI entry point: `flask --app wsgi run` or `gunicorn -c gunicorn.conf.py wsgi:app`."""
from companion import create_app

app = create_app()
