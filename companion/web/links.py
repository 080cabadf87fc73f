"""The addresses phones use: the join link, the rejoin link, the table display, and the QR
codes of them."""
from __future__ import annotations

import io
import socket
import subprocess
from functools import lru_cache

import qrcode
import qrcode.image.svg
from flask import Flask, current_app, request
from flask_babel import force_locale, gettext
from markupsafe import Markup, escape

from .languages import environment_language

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0"}


@lru_cache(maxsize=1)
def lan_address() -> str:
    """This machine's address on the local network, as other devices reach it."""
    try:
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True,
                               timeout=2).stdout.split()
    except (OSError, subprocess.SubprocessError):
        found = []
    addresses = [a for a in found if "." in a and not a.startswith("127.")]
    if addresses:
        return addresses[0]
    try:
        address = socket.gethostbyname(socket.gethostname())
        if not address.startswith("127."):
            return address
    except OSError:
        pass
    return "127.0.0.1"


def base_url() -> str:
    """COMPANION_PUBLIC_URL, else the address this request came to, with the LAN address
    in place of a loopback one (a phone cannot reach the laptop's 127.0.0.1)."""
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured
    host, _, port = request.host.rpartition(":") if request.host.count(":") == 1 \
        else (request.host, "", "")
    if host in LOCAL_HOSTS:
        host = lan_address()
    return f"{request.scheme}://{host}{':' + port if port else ''}"


def join_url(code: str) -> str:
    return f"{base_url()}/j/{code}"


def display_url(code: str) -> str:
    return f"{base_url()}/d/{code}"


def rejoin_url(code: str, token: str) -> str:
    # The token rides in the fragment: browsers never send it in a request line, so no
    # server or proxy log sees it. The page posts it to the server itself.
    return f"{base_url()}/r/{code}#{token}"


def qr_svg(data: str) -> Markup:
    """The QR code of `data`, named for a screen reader in the request's language."""
    label = escape(gettext("QR code"))
    return Markup(_qr_drawing(data).replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1))


@lru_cache(maxsize=256)  # a lobby's QR is drawn on every screen at every join
def _qr_drawing(data: str) -> str:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return image.to_string(encoding="unicode")


def qr_text(data: str) -> str:
    code = qrcode.QRCode(border=1)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def welcome(app: Flask, url: str) -> str:
    """What `make run` prints once the server is ready: the address and its QR code, in
    the language of the server's terminal (it has no request to ask)."""
    with app.app_context(), force_locale(environment_language(app.config["LANGUAGES"])):
        invitation = gettext("Companion is running. Open this on any phone or laptop on the "
                             "same Wi-Fi:")
    return f"\n{invitation}\n\n    {url}\n\n{qr_text(url)}"


def breakable(url: str) -> Markup:
    """A link as text that may wrap after a slash only, never inside a word or the code."""
    return Markup("/<wbr>").join(url.split("/"))
