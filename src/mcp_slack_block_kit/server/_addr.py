"""``HOST:PORT`` parsing and the one loopback rule of every server in the package.

The MCP HTTP transports, the CLI's ``server`` command and the playground all decide here
which addresses are loopback (no DNS look-ups), which ``Host`` names a loopback server
answers to (DNS-rebinding protection), and that a server reachable beyond this machine
needs the host names its clients use.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from ..exceptions import InvalidOptionsError

__all__ = ["LOOPBACK_ADDRESS", "LOOPBACK_HOSTS", "host_header_name", "is_loopback",
           "is_loopback_host", "loopback_names", "require_allowed_hosts", "split_host_port"]

# Where the package's servers listen unless told otherwise.
LOOPBACK_ADDRESS = "127.0.0.1"
# Host names a loopback bind answers to (DNS-rebinding protection allows only these).
LOOPBACK_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]")

_MAX_PORT = 65535


def split_host_port(addr: str) -> tuple[str, int]:
    """Split ``HOST:PORT`` (IPv6 literals in brackets) into ``(host, port)``.

    The host comes back without brackets and may be empty (``:8080``). Raises
    ``ValueError`` with a one-line message for anything else.
    """
    if addr.startswith("["):
        close = addr.find("]")
        if close < 0 or addr[close + 1 : close + 2] != ":":
            raise ValueError(f"invalid address {addr!r}: want HOST:PORT, e.g. 127.0.0.1:8080")
        host, port_text = addr[1:close], addr[close + 2 :]
    else:
        host, sep, port_text = addr.rpartition(":")
        if not sep or ":" in host:
            raise ValueError(f"invalid address {addr!r}: want HOST:PORT, e.g. 127.0.0.1:8080")
    if not port_text.isascii() or not port_text.isdigit() or int(port_text) > _MAX_PORT:
        raise ValueError(f"invalid port in address {addr!r}: want 0-{_MAX_PORT}")
    return host, int(port_text)


def is_loopback_host(host: str) -> bool:
    """True iff ``host`` is ``localhost`` (any case) or an IP literal in 127.0.0.0/8 or ``::1``."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_loopback(addr: str) -> bool:
    """True iff ``addr`` (``HOST:PORT``) binds a loopback address; unparsable input is not."""
    try:
        host, _ = split_host_port(addr)
    except ValueError:
        return False
    return is_loopback_host(host)


def loopback_names(host: str) -> list[str]:
    """The ``Host`` names (without port) a server bound to ``host`` answers to when ``host``
    is a loopback address: ``LOOPBACK_HOSTS`` plus the bound literal (``127.0.0.5``,
    ``[::1]``). ``[]`` for any other address: its names are the caller's allowed hosts."""
    if not is_loopback_host(host):
        return []
    names = list(LOOPBACK_HOSTS)
    literal = f"[{host}]" if ":" in host else host
    if literal.lower() not in names:
        names.append(literal)
    return names


def require_allowed_hosts(host: str, allowed_hosts: Sequence[str] | None) -> None:
    """Refuse to bind a non-loopback ``host`` without ``allowed_hosts``: the DNS-rebinding
    check needs the names clients use (``["*"]`` leaves it to a proxy). Raises
    ``InvalidOptionsError``."""
    if is_loopback_host(host) or any(h.strip() for h in allowed_hosts or ()):
        return
    raise InvalidOptionsError(
        f"{host or '0.0.0.0'} is not a loopback address: binding it requires allowed hosts "
        "(--allowed-hosts NAME[,NAME...]: the host names clients use, or '*' when a reverse "
        "proxy checks Host), and it should have a token (--http-token)")


def host_header_name(value: str) -> str | None:
    """The host of a ``Host`` header value, lower-cased and without its port.

    ``"127.0.0.1:8765"`` → ``"127.0.0.1"``, ``"[::1]"`` and ``"[::1]:80"`` → ``"[::1]"``,
    ``"LocalHost"`` → ``"localhost"``. ``None`` for a malformed value (an unclosed bracket,
    a non-numeric port, a bare IPv6 address without brackets).
    """
    if value.startswith("["):
        close = value.find("]")
        if close < 0:
            return None
        name, rest = value[: close + 1], value[close + 1 :]
    else:
        name, sep, port = value.partition(":")
        rest = sep + port
    port = rest[1:]
    if rest and not (rest.startswith(":") and (not port or (port.isascii() and port.isdigit()))):
        return None
    return name.lower() if name else None
