#include "SecretFilter.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace wl::SecretFilter {

namespace {

QString normalized(const QString &key)
{
    QString out;
    out.reserve(key.size());
    for (const QChar c : key) {
        if (c != u'_' && c != u'-' && c != u' ')
            out.append(c.toLower());
    }
    return out;
}

QJsonValue filtered(const QJsonValue &value);

QJsonArray filteredArray(const QJsonArray &array)
{
    QJsonArray out;
    for (const QJsonValue &v : array)
        out.append(filtered(v));
    return out;
}

QJsonValue filtered(const QJsonValue &value)
{
    if (value.isObject())
        return withoutSecrets(value.toObject());
    if (value.isArray())
        return filteredArray(value.toArray());
    return value;
}

} // namespace

bool isSecretKey(const QString &key)
{
    static const QStringList exact{u"key"_s, u"token"_s, u"secret"_s, u"password"_s, u"passwd"_s,
                                   u"authorization"_s, u"bearer"_s, u"credentials"_s, u"cookie"_s};
    static const QStringList suffixes{u"apikey"_s, u"secret"_s, u"password"_s, u"accesstoken"_s,
                                      u"refreshtoken"_s, u"authtoken"_s, u"bearertoken"_s, u"sessiontoken"_s};
    const QString k = normalized(key);
    if (exact.contains(k))
        return true;
    for (const QString &suffix : suffixes) {
        if (k.endsWith(suffix))
            return true;
    }
    return false;
}

QJsonObject withoutSecrets(const QJsonObject &object)
{
    QJsonObject out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!isSecretKey(it.key()))
            out.insert(it.key(), filtered(it.value()));
    }
    return out;
}

} // namespace wl::SecretFilter
