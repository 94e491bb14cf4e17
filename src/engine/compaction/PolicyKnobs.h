#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace wl {

struct CompactionPolicy;

// The tunable fields of a CompactionPolicy by the names of the command-line options that set them
// (`simulate` and `evaluate` read them with one long option each; a policy sweep's grid names
// them the same way). One table: a field added here is both an option and a grid key.
struct PolicyKnob
{
    const char *name;        // the long option, e.g. "warn"
    const char *valueName;   // e.g. "F"
    const char *description; // QT_TRANSLATE_NOOP("waterline-cli", ...): the option's help
    // Parses `value` (the option's text) into `policy`; false with a translated message that
    // names --name. Leaves `policy` unchanged on error.
    bool (*apply)(QStringView value, CompactionPolicy &policy, QString *error);
    // The field's value in `policy`, as JSON (a number, "on"/"off", or a name such as a strategy).
    QJsonValue (*read)(const CompactionPolicy &policy);
};

class PolicyKnobs
{
public:
    static const QList<PolicyKnob> &all();
    // nullptr for an unknown name.
    static const PolicyKnob *find(QStringView name);
    static QStringList names();

    // A grid value as the option text it stands for: a number as written in JSON, true/false as
    // on/off, a string as is; empty for anything else (arrays, objects, null).
    static QString optionText(const QJsonValue &value);

    // After the knobs in `given` were applied: empty when the thresholds rise (warn <= soft <=
    // full <= emergency) and the policy is valid, else a translated message naming the option
    // (one of `given` when it can).
    static QString check(const CompactionPolicy &policy, const QStringList &given);
};

} // namespace wl
