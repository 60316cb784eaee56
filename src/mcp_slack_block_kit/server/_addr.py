"""``HOST:PORT`` parsing and loopback detection for the HTTP transports (no DNS look-ups)."""

from __future__ import annotations

import ipaddress

__all__ = ["LOOPBACK_HOSTS", "host_header_name", "is_loopback", "is_loopback_host",
           "split_host_port"]

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
