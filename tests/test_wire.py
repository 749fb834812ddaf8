"""The wire (:mod:`webapp.transport.wire`): orjson for this server's packets only, and
it reads what ``json`` read (a client's ``NaN`` included)."""

import json

import pytest

from webapp.transport import wire


def test_the_servers_packets_are_orjsons_and_nobody_elses(app):
    from socketio import packet

    server = app.extensions["socketio"].server
    assert server.packet_class is wire.Packet and wire.Packet.json is wire.JSON
    assert packet.Packet.json is not wire.JSON  # clients of this process keep json
    data = ["analysis", {"board": "中 1", "distance": 3, "moves": [{"a": None}], 7: "seven"}]
    text = wire.Packet(packet.EVENT, data=data).encode()
    assert json.loads(text[1:]) == json.loads(json.dumps(data))  # the key 7 as "7"
    assert wire.Packet(encoded_packet=text).data == json.loads(text[1:])


@pytest.mark.parametrize(
    "text", ['2["analyse",{"id":NaN}]', '2["analyse",{"id":Infinity}]', '2["a",{"n":1e999}]']
)
def test_what_json_read_beyond_json_is_still_read(text):
    read = wire.Packet(encoded_packet=text).data
    assert json.dumps(read) == json.dumps(json.loads(text[1:]))  # NaN is no NaN's equal


def test_a_huge_integer_is_written_as_json_writes_it():
    assert wire.dumps({"n": 10**30}) == '{"n":' + str(10**30) + "}"
    with pytest.raises(ValueError):
        wire.loads("{not json")


def test_the_message_queue_writes_json_with_orjson_not_pickle():
    from webapp.transport.message_queue import LocalFirstManager

    manager = LocalFirstManager("redis://127.0.0.1:1/0")  # connects on first use only
    assert manager.json is wire.JSON
    message = {"method": "emit", "event": "analysis", "data": {"board": "中"}, "room": "s"}
    assert wire.loads(manager.json.dumps(message)) == message
