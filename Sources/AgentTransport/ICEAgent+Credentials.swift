extension ICEAgent {
    /// One side's ICE username fragment and password (`a=ice-ufrag`, `a=ice-pwd`).
    public struct Credentials: Sendable, Equatable {
        public var ufrag: String
        public var password: String

        public init(ufrag: String, password: String) {
            self.ufrag = ufrag
            self.password = password
        }

        /// RFC 5245 §15.4: ufrag 4–256 and password 22–256 ice-chars.
        func validate() throws(ICEAgentError) {
            func isICEChars(_ text: String) -> Bool {
                text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }
            }
            guard (4...256).contains(ufrag.count), isICEChars(ufrag) else {
                throw .invalidCredentials("ufrag must be 4-256 ice-chars")
            }
            guard (22...256).contains(password.count), isICEChars(password) else {
                throw .invalidCredentials("password must be 22-256 ice-chars")
            }
        }
    }
}
