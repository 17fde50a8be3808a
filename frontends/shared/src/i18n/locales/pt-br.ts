import type { Phrases } from './en';

export const ptBR: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Carregando…',
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
      placeholder: 'O console de administração do {{productName}} estará disponível aqui em breve.',
    },
  },
};
