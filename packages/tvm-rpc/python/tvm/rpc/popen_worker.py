"""The child side of a PopenSession: serve a LocalSession on stdin/stdout."""

import os
import sys


def main():
    # Keep the protocol pipes for ourselves; anything printed goes to stderr instead.
    read_fd, write_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    sys.stdout = sys.stderr

    from .channel import ChannelClosed, PipeChannel
    from .endpoint import RPCEndpoint
    from .local_session import LocalSession
    from .process import setup_logging

    setup_logging(silent=False)
    endpoint = RPCEndpoint(PipeChannel(read_fd, write_fd), "popen worker")
    try:
        endpoint.send_init()
        endpoint.receive_init()
    except ChannelClosed:
        return 1
    session = LocalSession()
    try:
        endpoint.serve(session)
    finally:
        session.close()
        endpoint.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
