#pragma once

#include <QJsonObject>
#include <QStringList>

namespace wl {

// How the commands of a session run (see Sandbox): with or without the network, whether the
// session may run them unsandboxed where bubblewrap cannot start, and which environment
// variables beyond the built-in allow-list reach them.
// JSON: {"network":true,"allow_unsandboxed":false,"environment":["NAME",...]}.
struct SandboxPolicy
{
    bool network = true;             // false: the command gets its own, empty network namespace
    bool allowUnsandboxed = false;   // the user's opt-in; without it a missing sandbox refuses
    QStringList extraEnvironment;    // variable names the user lets through

    bool isDefault() const { return *this == SandboxPolicy{}; }

    QJsonObject toJson() const;
    // Keys absent from `json` keep their defaults; a wrong type or a name that is not a valid
    // variable name is an error (and that key keeps its default).
    static SandboxPolicy fromJson(const QJsonObject &json, QString *error = nullptr);

    // A shell variable name: [A-Za-z_][A-Za-z0-9_]*.
    static bool isVariableName(const QString &name);

    friend bool operator==(const SandboxPolicy &, const SandboxPolicy &) = default;
};

} // namespace wl
