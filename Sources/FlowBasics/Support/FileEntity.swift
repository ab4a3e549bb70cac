import FlowIntents
import Foundation

/// A file or folder on this machine, as the file actions return it: what `${file.name}` and
/// `${file.size}` reach.
///
/// Its title is its absolute path, so where text is wanted a File gives its path, and its first URL
/// property is `url` (`file:///…`), so where a URL is wanted it gives that: the coercion table's entity
/// rows (SPEC §3) with nothing special for files. The values are read when the File is made (one
/// `statx`); an action that acts on a File goes by its path and looks again.
public struct FileEntity: AppEntity {
  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "File"
  public static let defaultQuery = FileQuery()

  /// The absolute path.
  public var id: String

  @Property(title: "Path") public var path: String
  @Property(title: "URL") public var url: URL
  @Property(title: "Name") public var name: String
  /// The extension without its dot, empty when there is none (`notes.md` → `md`; `.bashrc` → ``).
  @Property(title: "Extension") public var `extension`: String
  /// The absolute path of the folder it is in.
  @Property(title: "Folder") public var folder: String
  /// `file` or `folder`; a symbolic link is what it points to.
  @Property(title: "Kind") public var kind: String
  /// In bytes; 0 for a folder.
  @Property(title: "Size") public var size: Int
  @Property(title: "Created") public var created: Date?
  @Property(title: "Modified") public var modified: Date
  /// From the extension (`text/markdown`), `inode/directory` for a folder; the contents are never read.
  @Property(title: "MIME Type") public var mimeType: String

  public var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: "\(id)")
  }

  public init(path: String, isFolder: Bool, size: Int, created: Date?, modified: Date) {
    self.id = path
    self.path = path
    self.url = URL(fileURLWithPath: path, isDirectory: isFolder)
    let slash = path.lastIndex(of: "/")
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    self.name = name
    self.extension = isFolder ? "" : FileKinds.extension(of: name)
    self.folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ""
    self.kind = isFolder ? "folder" : "file"
    self.size = isFolder ? 0 : size
    self.created = created
    self.modified = modified
    self.mimeType = isFolder ? "inode/directory" : FileKinds.mimeType(ofExtension: self.extension)
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
      let path = entity.properties["path"]?.text ?? entity.title
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
