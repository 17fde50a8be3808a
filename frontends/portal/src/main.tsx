import '@gatehouse/frontend-shared/base.css';
import { mountApp } from '@gatehouse/frontend-shared';
import { App } from './App';
import { portalI18nOptions } from './i18n';

mountApp(App, portalI18nOptions);
