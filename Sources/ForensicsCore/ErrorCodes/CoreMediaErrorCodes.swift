/// `CoreMediaErrorDomain` codes: undocumented; known from the text AVPlayer logs next to them.
enum CoreMediaErrorCodes {
    static let all: [ErrorCodeEntry] = []
}
