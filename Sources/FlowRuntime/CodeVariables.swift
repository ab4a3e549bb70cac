/// Environment variables a shell, an interpreter, the dynamic linker or git reads as code, or as the
/// place code is loaded from: a value put in one of them runs as surely as one pasted into `script:`.
/// ScriptInjection refuses a `${…}` in their values (`run-shell`'s `environment:`, `env NAME=…` in a
/// `command:`), and warns when a shared file sets one at all (Documentation/Shell.md).
enum CodeVariables {
  /// What reads the variable, for the diagnostic: "bash runs the file it names before the script".
  static func reason(for name: String) -> String? {
    if let reason = exact[name] { return reason }
    for (prefix, reason) in prefixes where name.hasPrefix(prefix) { return reason }
    return nil
  }

  private static let exact: [String: String] = [
    "BASH_ENV": "bash runs the file it names before the script",
    "ENV": "sh and dash run the file it names when they start",
    "ZDOTDIR": "zsh runs the .zshenv in the folder it names",
    "PROMPT_COMMAND": "bash runs it as a command",
    "PS0": "bash expands it as a prompt, running any $(…) in it",
    "PS1": "bash expands it as a prompt, running any $(…) in it",
    "PS2": "bash expands it as a prompt, running any $(…) in it",
    "PS3": "bash expands it as a prompt, running any $(…) in it",
    "PS4": "bash expands it before each traced command, running any $(…) in it",
    "SHELLOPTS": "bash takes its options from it (xtrace makes PS4 run)",
    "BASHOPTS": "bash takes its options from it",
    "IFS": "the shell splits words with it, which changes what commands read",
    "CDPATH": "cd goes where it says, which changes what runs after it",
    "GLOBIGNORE": "the shell's file names change with it",
    "PATH": "it decides which program each name runs",
    "HOME": "programs read their start-up files and settings (~/.gitconfig, ~/.zshenv) from there",
    "XDG_CONFIG_HOME": "programs read their settings (git's aliases and hooks) from there",
    "PYTHONSTARTUP": "python runs the file it names",
    "PYTHONPATH": "python imports modules from the folders it names",
    "PYTHONHOME": "python loads its standard library from there",
    "PYTHONINSPECT": "python reads code from the terminal after the script",
    "PYTHONUSERBASE": "python imports modules from there",
    "NODE_OPTIONS": "node takes options from it (--require runs a file)",
    "NODE_PATH": "node loads modules from the folders it names",
    "PERL5OPT": "perl takes options from it (-M runs a module)",
    "PERL5LIB": "perl loads modules from the folders it names",
    "PERLLIB": "perl loads modules from the folders it names",
    "PERL5DB": "perl runs it as its debugger",
    "RUBYOPT": "ruby takes options from it (-r runs a file)",
    "RUBYLIB": "ruby loads libraries from the folders it names",
    "PHPRC": "php reads its settings (auto_prepend_file) from there",
    "PHP_INI_SCAN_DIR": "php reads its settings from there",
    "LUA_INIT": "lua runs it as code",
    "LUA_PATH": "lua loads modules from there",
    "LUA_CPATH": "lua loads native modules from there",
    "JAVA_TOOL_OPTIONS": "java takes options from it (-javaagent runs code)",
    "_JAVA_OPTIONS": "java takes options from it (-javaagent runs code)",
    "JDK_JAVA_OPTIONS": "java takes options from it (-javaagent runs code)",
    "CLASSPATH": "java loads classes from there",
    "GCONV_PATH": "the C library loads character-set modules from there",
    "GIT_SSH_COMMAND": "git runs it through a shell",
    "GIT_SSH": "git runs the program it names",
    "GIT_PROXY_COMMAND": "git runs it",
    "GIT_EXTERNAL_DIFF": "git runs it",
    "GIT_PAGER": "git runs it through a shell",
    "GIT_EDITOR": "git runs it through a shell",
    "GIT_ASKPASS": "git runs the program it names",
    "GIT_EXEC_PATH": "git runs its commands from there",
    "GIT_CONFIG_PARAMETERS": "git takes settings from it (core.sshCommand runs)",
    "GIT_CONFIG_GLOBAL": "git reads settings from the file it names",
    "GIT_CONFIG_SYSTEM": "git reads settings from the file it names",
    "GIT_DIR": "git reads the repository's settings and hooks from there",
    "SSH_ASKPASS": "ssh runs the program it names",
    "SUDO_ASKPASS": "sudo runs the program it names",
    "PAGER": "programs run it through a shell",
    "MANPAGER": "man runs it through a shell",
    "EDITOR": "programs run it through a shell",
    "VISUAL": "programs run it through a shell",
    "BROWSER": "programs run it",
    "LESSOPEN": "less runs it through a shell",
    "LESSCLOSE": "less runs it through a shell",
    "TERMINFO": "programs load terminal descriptions from there",
  ]

  private static let prefixes: [(String, String)] = [
    ("BASH_FUNC_", "bash defines a function from it"),
    ("LD_", "the dynamic linker reads it (LD_PRELOAD and LD_AUDIT load a library into every program)"),
    ("GIT_CONFIG_KEY_", "git takes settings from it (core.sshCommand runs)"),
    ("GIT_CONFIG_VALUE_", "git takes settings from it (core.sshCommand runs)"),
  ]
}
