import '@gatehouse/frontend-shared/base.css';
import { mountApp } from '@gatehouse/frontend-shared';
import { App } from './App';
import { adminI18nOptions } from './i18n';

mountApp(App, adminI18nOptions);
