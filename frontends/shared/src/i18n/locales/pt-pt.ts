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
    notFoundPage: {
      title: 'Página não encontrada',
      body: 'A página que procura não existe ou foi eliminada.',
      action: 'Voltar ao início',
    },
    roleOrigin: {
      own: 'em nome próprio',
      group: 'através do grupo {{group}}',
      hierarchy: 'herdado de {{tenant}}',
      hierarchyViaGroup: 'herdado de {{tenant}} através do grupo {{group}}',
    },
    termsOnlyIn: 'Estes termos existem apenas em {{languages}}.',
    table: {
      columns: 'Colunas',
      columnsShown: 'Colunas apresentadas',
    },
  },
  admin: {
    dashboard: {
      title: 'Administração',
      placeholder: 'A consola de administração do {{productName}} estará disponível aqui em breve.',
    },
  },
};
