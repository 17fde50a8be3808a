import { APPLICATION_STATUSES, type ApplicationStatus } from '@gatehouse/contracts';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import { useApplicationsTranslation } from './use-applications-translation';

/** The colour of each status's tag. */
const STATUS_COLOURS: Record<ApplicationStatus, string> = { Running: 'green', Maintenance: 'orange', Stopped: 'red' };

/** An application's status as a tag. */
export function ApplicationStatusTag({ status }: { status: ApplicationStatus }) {
  const { t } = useApplicationsTranslation();
  return <Tag color={STATUS_COLOURS[status]}>{t(`status.${status}`)}</Tag>;
}

export interface ApplicationStatusSelectProps {
  status: ApplicationStatus;
  /** Names the select for assistive technologies ("Status of CRM"). */
  label: string;
  loading?: boolean;
  onChange: (status: ApplicationStatus) => void;
}

/** The spec's status dropdown: Running, Maintenance or Stopped, changed directly. */
export function ApplicationStatusSelect({ status, label, loading, onChange }: ApplicationStatusSelectProps) {
  const { t } = useApplicationsTranslation();
  return (
    <Select<ApplicationStatus>
      className="applications-status"
      aria-label={label}
      value={status}
      loading={loading}
      disabled={loading}
      popupMatchSelectWidth={false}
      onChange={onChange}
      options={APPLICATION_STATUSES.map((value) => ({ value, label: <ApplicationStatusTag status={value} /> , title: t(`status.${value}`) }))}
    />
  );
}
