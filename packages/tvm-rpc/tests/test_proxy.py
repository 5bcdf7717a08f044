"""Proxy: a server that connects out to a proxy serves clients that connect to the proxy."""

import pytest
import tvm.rpc as rpc
from conftest import wait_for
from tvm.error import RPCError


def _try(port, key):
    try:
        return rpc.connect("127.0.0.1", port, key=key)
    except RPCError:
        return None


def test_session_through_proxy():
    with rpc.Proxy(port=0, silent=True) as proxy:
        with rpc.Server(
            host="127.0.0.1", port=proxy.port, is_proxy=True, key="dev", silent=True
        ) as srv:
            for _ in range(2):  # the server registers again after each session
                sess = wait_for(lambda: _try(proxy.port, "dev"), what="the server behind the proxy")
                with sess:
                    assert sess.get_function("rpc_test.add")(2, 3) == 5
                    assert sess.get_function("rpc_test.ppid")() == srv.pid


def test_proxy_without_matching_server(monkeypatch):
    monkeypatch.setattr("tvm.rpc.proxy.PAIR_TIMEOUT", 0.2)
    with rpc.Proxy(port=0, silent=True) as proxy:
        with pytest.raises(RPCError, match="no server with key 'ghost'"):
            rpc.connect("127.0.0.1", proxy.port, key="ghost")
