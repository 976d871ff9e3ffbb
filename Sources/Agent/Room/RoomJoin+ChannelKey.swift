extension RoomJoin {
    /// What makes two joins "the same room" on one engine (``ChannelKey``). A WHIP endpoint is
    /// keyed by its URL alone: a second session on one endpoint is refused by WHIP servers while
    /// the first lives, so an engine must not open two.
    var key: ChannelKey { ChannelKey(server: server, room: room ?? "") }
}
