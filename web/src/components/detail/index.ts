// The detail kit: cards, facts, plain tables, form results and form dialogs.
export { Panel, PanelEmpty } from './Panel';
export { StatCard } from './StatCard';
export { FieldList, type Field } from './FieldList';
export { FormAlert } from './FormAlert';
export { FormDialog } from './FormDialog';
export { PLAIN_CELL, PlainTable } from './PlainTable';
