import Testing

@testable import BotKit
