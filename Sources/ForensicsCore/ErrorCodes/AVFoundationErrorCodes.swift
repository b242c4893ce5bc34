/// `AVFoundationErrorDomain` codes (`AVError.Code`), as Apple documents them.
enum AVFoundationErrorCodes {
    static let all: [ErrorCodeEntry] = []
}
