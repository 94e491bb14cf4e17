#include "ProviderProfilesModel.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace wl {

ProviderProfilesModel::ProviderProfilesModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

int ProviderProfilesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_profiles.size());
}

QVariant ProviderProfilesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ProviderProfile &p = m_profiles.at(index.row());
    const bool isDefault = index.row() == m_defaultRow;
    switch (role) {
    case Qt::DisplayRole:
        return isDefault ? tr("%1 (default)").arg(p.name) : p.name;
    case Qt::ToolTipRole:
        return tr("%1 at %2, model %3").arg(ProviderProfile::protocolName(p.protocol), p.baseUrl.toString(), p.model);
    case Qt::AccessibleDescriptionRole:
        return isDefault ? tr("default profile") : QString();
    case ProfileRole:
        return QVariant::fromValue(p);
    case NameRole:
        return p.name;
    case ProtocolRole:
        return ProviderProfile::protocolName(p.protocol);
    case BaseUrlRole:
        return p.baseUrl.toString();
    case ModelRole:
        return p.model;
    case IsDefaultRole:
        return isDefault;
    case ProblemRole:
        return problem(index.row());
    default:
        return {};
    }
}

QHash<int, QByteArray> ProviderProfilesModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(ProfileRole, "profile");
    names.insert(NameRole, "name");
    names.insert(ProtocolRole, "protocol");
    names.insert(BaseUrlRole, "baseUrl");
    names.insert(ModelRole, "model");
    names.insert(IsDefaultRole, "isDefault");
    names.insert(ProblemRole, "problem");
    return names;
}

void ProviderProfilesModel::setProfiles(const QList<ProviderProfile> &profiles, const QString &defaultName)
{
    beginResetModel();
    m_profiles = profiles;
    m_defaultRow = m_profiles.isEmpty() ? -1 : 0;
    for (qsizetype i = 0; i < m_profiles.size(); ++i) {
        if (m_profiles.at(i).name == defaultName)
            m_defaultRow = int(i);
    }
    endResetModel();
}

ProviderProfile ProviderProfilesModel::profile(int row) const
{
    return row >= 0 && row < m_profiles.size() ? m_profiles.at(row) : ProviderProfile{};
}

void ProviderProfilesModel::setProfile(int row, const ProviderProfile &profile)
{
    if (row < 0 || row >= m_profiles.size() || m_profiles.at(row) == profile)
        return;
    m_profiles[row] = profile;
    const QModelIndex changed = index(row);
    Q_EMIT dataChanged(changed, changed);
    // A rename can make another row's name unique again (or repeated): its problem text changes.
    if (m_profiles.size() > 1)
        Q_EMIT dataChanged(index(0), index(int(m_profiles.size()) - 1), {ProblemRole});
}

int ProviderProfilesModel::addProfile(ProviderProfile profile)
{
    profile.name = uniqueName(profile.name.trimmed().isEmpty() ? tr("New profile") : profile.name.trimmed());
    const int row = int(m_profiles.size());
    beginInsertRows({}, row, row);
    m_profiles.append(profile);
    endInsertRows();
    if (m_defaultRow < 0)
        setDefaultRow(row);
    return row;
}

int ProviderProfilesModel::duplicateProfile(int row)
{
    if (row < 0 || row >= m_profiles.size())
        return -1;
    ProviderProfile copy = m_profiles.at(row);
    copy.name = uniqueName(tr("%1 (copy)").arg(copy.name));
    return addProfile(copy);
}

bool ProviderProfilesModel::removeProfile(int row)
{
    if (row < 0 || row >= m_profiles.size())
        return false;
    const bool wasDefault = row == m_defaultRow;
    beginRemoveRows({}, row, row);
    m_profiles.removeAt(row);
    // The other rows keep their data during the removal; a new default is announced after it.
    if (wasDefault)
        m_defaultRow = -1;
    else if (m_defaultRow > row)
        --m_defaultRow;
    endRemoveRows();
    if (wasDefault && !m_profiles.isEmpty())
        setDefaultRow(0);
    return true;
}

void ProviderProfilesModel::setDefaultRow(int row)
{
    if (row < 0 || row >= m_profiles.size() || row == m_defaultRow)
        return;
    const int old = m_defaultRow;
    m_defaultRow = row;
    if (old >= 0 && old < m_profiles.size())
        Q_EMIT dataChanged(index(old), index(old));
    Q_EMIT dataChanged(index(row), index(row));
}

QString ProviderProfilesModel::defaultName() const
{
    return m_defaultRow >= 0 ? m_profiles.at(m_defaultRow).name : QString();
}

int ProviderProfilesModel::rowOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_profiles.size(); ++i) {
        if (m_profiles.at(i).name == name)
            return int(i);
    }
    return -1;
}

QString ProviderProfilesModel::uniqueName(const QString &base, int exceptRow) const
{
    const auto taken = [this, exceptRow](const QString &name) {
        for (qsizetype i = 0; i < m_profiles.size(); ++i) {
            if (i != exceptRow && m_profiles.at(i).name == name)
                return true;
        }
        return false;
    };
    if (!taken(base))
        return base;
    for (int n = 2;; ++n) {
        const QString candidate = u"%1 %2"_s.arg(base).arg(n);
        if (!taken(candidate))
            return candidate;
    }
}

QString ProviderProfilesModel::problem(int row) const
{
    if (row < 0 || row >= m_profiles.size())
        return {};
    const ProviderProfile &p = m_profiles.at(row);
    const QString name = p.name.trimmed();
    if (name.isEmpty())
        return tr("The profile needs a name.");
    for (qsizetype i = 0; i < m_profiles.size(); ++i) {
        if (i != row && m_profiles.at(i).name.trimmed() == name)
            return tr("Another profile is also called \"%1\".").arg(name);
    }
    // The same checks loading applies: a profile that could not be read back is not saved.
    QString error;
    if (!ProviderProfile::fromJson(p.toJson(), &error))
        return error.isEmpty() ? tr("The profile is incomplete.") : error.left(1).toUpper() + error.mid(1) + u'.';
    return {};
}

QString ProviderProfilesModel::firstProblem(int *row) const
{
    for (int i = 0; i < m_profiles.size(); ++i) {
        const QString text = problem(i);
        if (!text.isEmpty()) {
            if (row)
                *row = i;
            return tr("%1: %2").arg(m_profiles.at(i).name.trimmed().isEmpty() ? tr("Unnamed profile") : m_profiles.at(i).name, text);
        }
    }
    if (row)
        *row = -1;
    return {};
}

} // namespace wl
