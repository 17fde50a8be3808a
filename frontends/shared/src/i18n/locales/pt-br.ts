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
    notFoundPage: {
      title: 'Página não encontrada',
      body: 'A página que você procura não existe ou foi excluída.',
      action: 'Voltar para o início',
    },
    roleOrigin: {
      own: 'em nome próprio',
      group: 'por meio do grupo {{group}}',
      hierarchy: 'herdado de {{tenant}}',
      hierarchyViaGroup: 'herdado de {{tenant}} por meio do grupo {{group}}',
    },
    termsOnlyIn: 'Estes termos existem apenas em {{languages}}.',
    table: {
      columns: 'Colunas',
      columnsShown: 'Colunas exibidas',
    },
  },
  admin: {
    dashboard: {
      title: 'Administração',
      placeholder: 'O console de administração do {{productName}} estará disponível aqui em breve.',
    },
  },
};
