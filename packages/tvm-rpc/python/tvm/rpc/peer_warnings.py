"""Warnings about peers, rate-limited per peer host (a hostile peer must not flood the log)."""

import logging
import time

logger = logging.getLogger("tvm.rpc")

# At most one warning per peer host per this many seconds; hosts remembered at once.
WARN_INTERVAL = 10.0
MAX_HOSTS = 1024


class PeerWarnings:
    """``warn(host, fmt, *args)``: logger.warning unless ``host`` was warned about within
    ``interval`` s; the next warning that gets through says how many were held back."""

    def __init__(self, interval=WARN_INTERVAL, max_hosts=MAX_HOSTS, clock=time.monotonic):
        self.interval = interval
        self.max_hosts = max_hosts
        self.clock = clock
        self.recent = {}  # host -> [time of its last warning, warnings held back since]

    def warn(self, host, fmt, *args):
        now = self.clock()
        entry = self.recent.get(host)
        if entry is not None and now - entry[0] < self.interval:
            entry[1] += 1
            return
        if entry is None and len(self.recent) >= self.max_hosts:
            self.recent = {h: e for h, e in self.recent.items() if now - e[0] < self.interval}
            if len(self.recent) >= self.max_hosts:
                return  # that many hosts warned about just now: this one is held back
        held = entry[1] if entry is not None else 0
        self.recent[host] = [now, 0]
        suffix = f" ({held} more from {host} held back)" if held else ""
        logger.warning(fmt + "%s", *args, suffix)
