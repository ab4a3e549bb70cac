import FlowIntents
import FoundationEssentials
import Synchronization

/// A file or folder on this machine, as the file actions return it: what `${file.name}` and
/// `${file.size}` reach.
///
/// Its title is its absolute path, so where text is wanted a File gives its path, and its first URL
/// property is `url` (`file:///…`), so where a URL is wanted it gives that: the coercion table's entity
/// rows (SPEC §3) with nothing special for files.
///
/// A File is its folder, its name and its kind, which a listing knows from the folder's entries alone:
/// the Files of one folder share its path's storage, and a name of up to 15 bytes is held in the File
/// itself, so a listing makes one small object per entry and no path. Its size and dates are read (one
/// `statx`) the first time a step reads one of them, and then kept, so a File says one thing however
/// often it is asked. Listing 100,000 files and counting them makes no `statx` at all (Files.md).
/// Everything else is computed when it is read. An action that acts on a File goes by its path and
/// looks again.
public final class FileEntity: AppEntity {
  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "File"
  public static let defaultQuery = FileQuery()

  /// The absolute path of the folder it is in (`/` for a file at the root).
  public let folder: String
  /// The last part of the path.
  public let name: String
  /// A folder, or a link to one; a file otherwise.
  public let isFolder: Bool
  /// Size and dates: given when the File was made with a `statx` in hand, read on first use otherwise.
  private let details = AtomicLazyReference<FileDetails>()
  /// Who reads them on first use: the file system the File was listed from.
  private let loader: (any FileDetailsLoading.Type)?

  /// The File `name` in `folder`; without `details`, `loader` reads its size and dates when first asked.
  public init(
    folder: String, name: String, isFolder: Bool, details: FileDetails?, loader: any FileDetailsLoading.Type
  ) {
    self.folder = folder
    self.name = name
    self.isFolder = isFolder
    self.loader = loader
    if let details { _ = self.details.storeIfNil(details) }
  }

  /// The File at an absolute path, with what a `statx` already said.
  public init(path: String, isFolder: Bool, details: FileDetails) {
    loader = nil
    if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
      self.folder = slash == path.startIndex ? "/" : String(path[..<slash])
      self.name = String(path[path.index(after: slash)...])
    } else {
      self.folder = ""
      self.name = path
    }
    self.isFolder = isFolder
    _ = self.details.storeIfNil(details)
  }

  /// The absolute path.
  public var path: String {
    folder.isEmpty ? name : folder == "/" ? "/" + name : folder + "/" + name
  }
  public var id: String { path }
  public var url: URL { URL(fileURLWithPath: path, isDirectory: isFolder) }
  /// The extension without its dot, empty when there is none (`notes.md` → `md`; `.bashrc` → ``).
  public var `extension`: String { isFolder ? "" : FileKinds.extension(of: name) }
  /// `file` or `folder`; a symbolic link is what it points to.
  public var kind: String { isFolder ? "folder" : "file" }
  /// In bytes; 0 for a folder.
  public var size: Int { isFolder ? 0 : readDetails().size }
  /// The birth time, where the file system records one.
  public var created: Date? { readDetails().created }
  /// Nil only when the file was gone by the time its details were first read.
  public var modified: Date? { readDetails().modified }
  /// From the extension (`text/markdown`), `inode/directory` for a folder; the contents are never read.
  public var mimeType: String {
    isFolder ? "inode/directory" : FileKinds.mimeType(ofExtension: self.extension)
  }

  private func readDetails() -> FileDetails {
    details.load() ?? details.storeIfNil(loader?.details(at: path) ?? FileDetails(size: 0, created: nil, modified: nil))
  }

  public var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: LocalizedStringResource(path))
  }

  // MARK: Properties

  /// The properties in the order `flow actions` lists them, each read from the File when it is asked
  /// for: no reflection and no stored dictionary.
  private static let properties:
    [(key: String, title: String, type: ValueType, read: @Sendable (FileEntity) -> FlowValue)] = [
      ("path", "Path", .text, { .text($0.path) }),
      ("url", "URL", .url, { .url($0.url) }),
      ("name", "Name", .text, { .text($0.name) }),
      ("extension", "Extension", .text, { .text($0.extension) }),
      ("folder", "Folder", .text, { .text($0.folder) }),
      ("kind", "Kind", .text, { .text($0.kind) }),
      ("size", "Size", .integer, { .number(Double($0.size)) }),
      ("created", "Created", .date, { $0.created.map(FlowValue.date) ?? .nothing }),
      ("modified", "Modified", .date, { $0.modified.map(FlowValue.date) ?? .nothing }),
      ("mime-type", "MIME Type", .text, { .text($0.mimeType) }),
    ]

  public static let propertySchema: [PropertySchema] =
    [PropertySchema(key: "id", title: "ID", type: .text), PropertySchema(key: "title", title: "Title", type: .text)]
    + properties.map { PropertySchema(key: $0.key, title: Naming.title(fromKey: $0.key), type: $0.type) }

  public var propertyValues: FlowDictionary {
    FlowDictionary(Self.properties.map { (key: $0.key, value: $0.read(self)) })
  }

  public func propertyValue(forKey key: String) -> FlowValue? {
    Self.properties.first { $0.key == key }?.read(self)
  }

  public var propertyTitles: [(key: String, title: String)] {
    Self.properties.map { ($0.key, $0.title) }
  }

  /// A path written in a step, another step's File, or a URL (`file://`) where a File is wanted: looked up
  /// on the disk now, through the run's ``Files``. No globs here: `get-file` expands them.
  public static func resolve(_ value: FlowValue, in context: IntentContext) async throws -> FileEntity {
    guard let files = context.dependency((any Files).self) else {
      throw AppIntentError.failed("files cannot be reached in this run")
    }
    switch value {
    case .entity(let entity) where entity.typeName == typeDisplayRepresentation.name:
      // A File from an earlier step is looked at again: it may have moved or changed since.
      let path = entity.property("path")?.text ?? entity.title
      return try files.item(at: path)
    case .url(let url) where url.isFileURL:
      return try files.item(at: url.path)
    case .text(let text):
      if let url = URL(string: text), url.isFileURL { return try files.item(at: url.path) }
      return try files.item(at: text)
    case .list(let items):
      throw CoercionError.listWhereOneExpected(count: items.count, expected: valueType)
    default:
      throw CoercionError.expected(valueType, got: value, help: "give a path, such as '~/notes.txt'")
    }
  }
}

/// What a `statx` says of a file beyond its path and kind; a class, so that a File that never reads it
/// holds one empty reference.
public final class FileDetails: Sendable {
  let size: Int
  let created: Date?
  let modified: Date?

  public init(size: Int, created: Date?, modified: Date?) {
    self.size = size
    self.created = created
    self.modified = modified
  }
}

/// Reads a listed File's size and dates when a step first asks for one (FlowSystem's `LocalFiles`).
public protocol FileDetailsLoading {
  /// A file that has gone by then has size 0 and no dates.
  static func details(at path: String) -> FileDetails
}

/// Finds Files by path: the entity query every AppEntity declares.
public struct FileQuery: EntityQuery {
  public init() {}

  public func entities(for identifiers: [String]) async throws -> [FileEntity] {
    guard let files = IntentContext.current?.dependency((any Files).self) else { return [] }
    return identifiers.compactMap { try? files.item(at: $0) }
  }
}

/// What the extension of a name says: the extension itself, and the MIME type a desktop gives it.
public enum FileKinds {
  /// The text after the last dot of a name, unless the dot starts it (`.bashrc`) or ends it.
  public static func `extension`(of name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
    else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// The MIME type for an extension, from the shared-mime-info names of common types (no content
  /// sniffing: reading every file of a listing would be slow and libmagic is one more library);
  /// `application/octet-stream` for the rest, as a desktop says of an unknown file.
  public static func mimeType(ofExtension ext: String) -> String {
    types[ext.lowercased()] ?? "application/octet-stream"
  }

  static let types: [String: String] = [
    "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
    "markdown": "text/markdown", "csv": "text/csv", "tsv": "text/tab-separated-values", "html": "text/html",
    "htm": "text/html", "css": "text/css", "js": "text/javascript", "mjs": "text/javascript",
    "json": "application/json", "xml": "application/xml", "yml": "application/yaml", "yaml": "application/yaml",
    "toml": "application/toml", "ini": "text/plain", "conf": "text/plain", "sh": "application/x-shellscript",
    "py": "text/x-python", "swift": "text/x-swift", "c": "text/x-csrc", "h": "text/x-chdr", "rs": "text/rust",
    "go": "text/x-go", "java": "text/x-java", "rb": "application/x-ruby", "pdf": "application/pdf",
    "zip": "application/zip", "gz": "application/gzip", "tgz": "application/x-compressed-tar",
    "tar": "application/x-tar", "xz": "application/x-xz", "bz2": "application/x-bzip2", "zst": "application/zstd",
    "7z": "application/x-7z-compressed", "deb": "application/vnd.debian.binary-package",
    "iso": "application/x-cd-image", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
    "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
    "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heif", "mp3": "audio/mpeg",
    "ogg": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "wav": "audio/x-wav", "m4a": "audio/mp4",
    "mp4": "video/mp4", "mkv": "video/x-matroska", "webm": "video/webm", "mov": "video/quicktime",
    "avi": "video/x-msvideo", "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "ppt": "application/vnd.ms-powerpoint",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "epub": "application/epub+zip", "ics": "text/calendar", "vcf": "text/vcard", "tmp": "application/x-trash",
    "bak": "application/x-trash", "torrent": "application/x-bittorrent",
  ]
}
