#include "tools/SandboxPolicy.h"

#include <QCoreApplication>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace wl {

QJsonObject SandboxPolicy::toJson() const
{
    return QJsonObject{{u"network"_s, network},
                       {u"allow_unsandboxed"_s, allowUnsandboxed},
                       {u"environment"_s, QJsonArray::fromStringList(extraEnvironment)}};
}

SandboxPolicy SandboxPolicy::fromJson(const QJsonObject &json, QString *error)
{
    SandboxPolicy policy;
    QStringList problems;
    auto readBool = [&](const QString &key, bool *out) {
        if (!json.contains(key))
            return;
        if (json.value(key).isBool())
            *out = json.value(key).toBool();
        else
            problems << QCoreApplication::translate("wl::SandboxPolicy", "'%1' must be true or false").arg(key);
    };
    readBool(u"network"_s, &policy.network);
    readBool(u"allow_unsandboxed"_s, &policy.allowUnsandboxed);
    if (json.contains(u"environment"_s)) {
        const QJsonValue value = json.value(u"environment"_s);
        QStringList names;
        bool ok = value.isArray();
        for (const QJsonValue &name : value.toArray()) {
            if (!name.isString() || !isVariableName(name.toString())) {
                ok = false;
                break;
            }
            if (!names.contains(name.toString()))
                names << name.toString();
        }
        if (ok)
            policy.extraEnvironment = names;
        else
            problems << QCoreApplication::translate("wl::SandboxPolicy",
                                                    "'environment' must be a list of variable names");
    }
    if (error)
        *error = problems.join(u"; "_s);
    return policy;
}

bool SandboxPolicy::isVariableName(const QString &name)
{
    if (name.isEmpty() || name.size() > 256)
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char16_t c = name.at(i).unicode();
        const bool letter = (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || c == u'_';
        const bool digit = c >= u'0' && c <= u'9';
        if (!letter && !(digit && i > 0))
            return false;
    }
    return true;
}

} // namespace wl
