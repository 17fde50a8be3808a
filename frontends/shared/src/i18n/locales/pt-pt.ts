import type { Phrases } from './en';

export const ptPT: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'A carregar…',
    notSet: '(Não definido)',
    errors: {
      notFound: 'Não encontrado',
      accessDenied: 'Acesso negado',
      unknown: 'Erro desconhecido',
    },
  },
  admin: {
    dashboard: {
      title: 'Administração',
      placeholder: 'A consola de administração do {{productName}} estará disponível aqui em breve.',
    },
  },
};
