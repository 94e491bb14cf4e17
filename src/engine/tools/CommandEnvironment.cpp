#include "tools/CommandEnvironment.h"

using namespace Qt::StringLiterals;

namespace wl::CommandEnvironment {

QStringList allowedNames()
{
    return {
        // The shell and the user.
        u"PATH"_s, u"HOME"_s, u"USER"_s, u"LOGNAME"_s, u"SHELL"_s, u"TERM"_s, u"TMPDIR"_s, u"TZ"_s,
        u"HOSTNAME"_s, u"COLUMNS"_s, u"LINES"_s, u"EDITOR"_s, u"VISUAL"_s,
        // Language.
        u"LANG"_s, u"LANGUAGE"_s, u"LC_*"_s,
        // Toolchain locations a build looks for.
        u"JAVA_HOME"_s, u"GOPATH"_s, u"GOROOT"_s, u"CARGO_HOME"_s, u"RUSTUP_HOME"_s, u"VIRTUAL_ENV"_s,
        u"CONDA_PREFIX"_s, u"PYENV_ROOT"_s, u"NVM_DIR"_s, u"PKG_CONFIG_PATH"_s, u"CMAKE_PREFIX_PATH"_s,
        u"CC"_s, u"CXX"_s, u"CFLAGS"_s, u"CXXFLAGS"_s, u"LDFLAGS"_s,
    };
}

bool isAllowed(const QString &name, const QStringList &extraNames)
{
    if (extraNames.contains(name))
        return true;
    static const QStringList names = allowedNames();
    for (const QString &allowed : names) {
        if (allowed.endsWith(u'*') ? name.startsWith(QStringView(allowed).chopped(1)) : name == allowed)
            return true;
    }
    return false;
}

QProcessEnvironment build(const QProcessEnvironment &source, const QStringList &extraNames)
{
    QProcessEnvironment environment;
    const QStringList names = source.keys();
    for (const QString &name : names) {
        if (isAllowed(name, extraNames))
            environment.insert(name, source.value(name));
    }
    // Nothing interactive: no pager waits for a key, no colour codes in the output.
    environment.insert(u"PAGER"_s, u"cat"_s);
    environment.insert(u"GIT_PAGER"_s, u"cat"_s);
    environment.insert(u"TERM"_s, u"dumb"_s);
    return environment;
}

} // namespace wl::CommandEnvironment
