#pragma once

#include <QJsonObject>

namespace wl::SecretFilter {

// The object without secret-bearing fields, at any depth: keys such as "api_key", "apiKey",
// "secret", "password", "token", "access_token", "Authorization" (case, '_' and '-' ignored).
// A key reference ("key_ref", "api_key_env": the name of where a key lives) is kept.
QJsonObject withoutSecrets(const QJsonObject &object);

bool isSecretKey(const QString &key);

} // namespace wl::SecretFilter
