import '@gatehouse/frontend-shared/base.css';
import { mountApp } from '@gatehouse/frontend-shared';
import { App } from './App';

mountApp(App);
