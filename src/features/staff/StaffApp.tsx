import { Navigate, useRoutes } from 'react-router-dom';
import { RoleOnly, SignedInConsole } from './session/SignedInConsole';
import { DecisionsPage } from './decisions/DecisionsPage';
import { LettersPage } from './decisions/LettersPage';
import { ReplyDatesPage } from './decisions/ReplyDatesPage';
import { ConflictsPage } from './admin/ConflictsPage';
import { BinsPage, ReviewFormPage } from './review/ReadingSetupPages';
import { CompositeFormulaPage } from './review/CompositeFormulaPage';
import { CommitteePage } from './review/CommitteePage';
import { ChecklistRulesPage } from './materials/ChecklistRulesPage';
import { StaffLogin } from './session/StaffLogin';
import { StaffSetup } from './session/StaffSetup';
import { ApplicationsList } from './reading/ApplicationsList';
import { ApplicationView } from './reading/ApplicationView';
import { Dashboard } from './reading/Dashboard';
import { ReportsPage } from './reading/ReportsPage';
import { ExportPage } from './exports/ExportPage';
import { RetentionPage } from './records/RetentionPage';
import { DuplicatesPage } from './records/DuplicatesPage';
import { ExportTemplatePage } from './exports/ExportTemplatePage';
import { AuditLogPage } from './admin/AuditLogPage';
import { PeoplePage } from './admin/PeoplePage';
import { STAFF_HOME } from './paths';
import './staff.css';

/** The admissions office's console under /staff: its own bundle, loaded only when /staff is opened. */
export function StaffApp() {
  return useRoutes([
    { path: 'login', element: <StaffLogin /> },
    { path: 'setup', element: <StaffSetup /> },
    {
      element: <SignedInConsole />,
      children: [
        { index: true, element: <ApplicationsList /> },
        { path: 'applications/:id', element: <ApplicationView /> },
        { path: 'dashboard', element: <Dashboard /> },
        { path: 'reports', element: <ReportsPage /> },
        { path: 'decisions', element: <RoleOnly role="decider"><DecisionsPage /></RoleOnly> },
        { path: 'committee', element: <RoleOnly role="decider"><CommitteePage /></RoleOnly> },
        { path: 'letters', element: <RoleOnly role="decider"><LettersPage /></RoleOnly> },
        { path: 'export', element: <RoleOnly role="admin"><ExportPage /></RoleOnly> },
        { path: 'export/templates/:template', element: <RoleOnly role="admin"><ExportTemplatePage /></RoleOnly> },
        { path: 'audit', element: <RoleOnly role="admin"><AuditLogPage /></RoleOnly> },
        { path: 'people', element: <RoleOnly role="admin"><PeoplePage /></RoleOnly> },
        { path: 'conflicts', element: <RoleOnly role="admin"><ConflictsPage /></RoleOnly> },
        { path: 'review-form', element: <RoleOnly role="admin"><ReviewFormPage /></RoleOnly> },
        { path: 'composite', element: <RoleOnly role="admin"><CompositeFormulaPage /></RoleOnly> },
        { path: 'reply-dates', element: <RoleOnly role="admin"><ReplyDatesPage /></RoleOnly> },
        { path: 'bins', element: <RoleOnly role="admin"><BinsPage /></RoleOnly> },
        { path: 'checklist', element: <RoleOnly role="admin"><ChecklistRulesPage /></RoleOnly> },
        { path: 'retention', element: <RoleOnly role="admin"><RetentionPage /></RoleOnly> },
        { path: 'duplicates', element: <DuplicatesPage /> },
        { path: '*', element: <Navigate to={STAFF_HOME} replace /> },
      ],
    },
  ]);
}
