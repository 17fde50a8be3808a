import Alert from 'antd/es/alert';
import Input from 'antd/es/input';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../api/errors';
import { useCompaniesQuery, useSetCurrentCompanyMutation, type Company } from '../../api/portal-api';
import { storeCompanyPreference } from './company-preference';
import './companies.css';

/** The tenant selector's page (spec: skip 0, take 10, by title). */
export const COMPANIES_PAGE_SIZE = 10;
/** Companies are the "entities" of the spec, whose search pickers wait 800 ms. */
export const COMPANY_SEARCH_DEBOUNCE_MS = 800;

/** The search typed, handed on once the user pauses. */
function useDebouncedSearch(): [string, string, (text: string) => void] {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), COMPANY_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return [text, search, setText];
}

export interface CompanySelectDialogProps {
  open: boolean;
  /** The company the user works for now, marked in the list. */
  current: Company | null | undefined;
  onClose: () => void;
}

/**
 * "Change company": the user's companies, searched by title ten at a time; the one picked becomes
 * the current company, kept on the server (sent to the applications that ask for it) and in the
 * local preferences (`currentCompany`).
 */
export function CompanySelectDialog({ open, current, onClose }: CompanySelectDialogProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const [text, search, setText] = useDebouncedSearch();
  const [picked, setPicked] = useState<string>();
  const [toast, toastHolder] = message.useMessage();
  const companies = useCompaniesQuery({ searchQuery: search, skip: 0, take: COMPANIES_PAGE_SIZE }, { skip: !open });
  const [choose, choice] = useSetCurrentCompanyMutation();
  const items = companies.data?.items ?? [];
  const selected = picked ?? current?.id;

  const close = () => {
    setPicked(undefined);
    setText('');
    choice.reset();
    onClose();
  };

  const save = async () => {
    if (!picked) return;
    const result = await choose({ tenantId: picked });
    if (!result.data) return;
    storeCompanyPreference(result.data);
    void toast.success(t('companies.saved', { title: result.data.title }));
    close();
  };

  return (
    <>
      {toastHolder}
      <Modal
        open={open}
        title={t('companies.title')}
        okText={t('companies.ok')}
        cancelText={t('companies.cancel')}
        okButtonProps={{ disabled: !picked || picked === current?.id, loading: choice.isLoading }}
        onOk={() => void save()}
        onCancel={close}
        destroyOnHidden
      >
        <p>{t('companies.intro')}</p>
        <Input.Search allowClear value={text} onChange={(event) => setText(event.target.value)} aria-label={t('companies.search')} placeholder={t('companies.search')} />
        {companies.isError && <Alert className="companies__alert" type="error" showIcon title={t('companies.loadError')} />}
        {choice.isError && <Alert className="companies__alert" type="error" showIcon title={failureMessage(choice.error, common)} />}
        <Spin spinning={companies.isFetching}>
          {companies.isSuccess && items.length === 0 ? (
            <p className="companies__empty">{t('companies.empty')}</p>
          ) : (
            <Radio.Group className="companies__list" aria-label={t('companies.results')} value={selected} onChange={(event) => setPicked(event.target.value as string)}>
              {items.map((company) => (
                <Radio key={company.id} value={company.id}>
                  {company.title}
                  {company.id === current?.id && <Tag className="companies__current">{t('companies.current')}</Tag>}
                </Radio>
              ))}
            </Radio.Group>
          )}
        </Spin>
        {companies.data && companies.data.count > items.length && (
          <p className="companies__more">{t('companies.more', { shown: items.length, count: companies.data.count })}</p>
        )}
      </Modal>
    </>
  );
}
