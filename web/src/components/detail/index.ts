// The staff detail kit: cards, facts, form results and form dialogs.
export { Panel, PanelEmpty } from './Panel';
export { StatCard } from './StatCard';
export { FieldList, type Field } from './FieldList';
export { FormAlert } from './FormAlert';
export { FormDialog } from './FormDialog';
