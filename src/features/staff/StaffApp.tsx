import { Navigate, useRoutes } from 'react-router-dom';
import { RoleOnly, SignedInConsole } from './SignedInConsole';
import { DecisionsPage } from './DecisionsPage';
import { LettersPage } from './LettersPage';
import { ConflictsPage } from './ConflictsPage';
import { BinsPage, ReviewFormPage } from './ReadingSetupPages';
import { ChecklistRulesPage } from './ChecklistRulesPage';
import { StaffLogin } from './StaffLogin';
import { StaffSetup } from './StaffSetup';
import { ApplicationsList } from './ApplicationsList';
import { ApplicationView } from './ApplicationView';
import { Dashboard } from './Dashboard';
import { ExportPage } from './ExportPage';
import { RetentionPage } from './RetentionPage';
import { DuplicatesPage } from './DuplicatesPage';
import { ExportTemplatePage } from './ExportTemplatePage';
import { AuditLogPage } from './AuditLogPage';
import { PeoplePage } from './PeoplePage';
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
        { path: 'decisions', element: <RoleOnly role="decider"><DecisionsPage /></RoleOnly> },
        { path: 'letters', element: <RoleOnly role="decider"><LettersPage /></RoleOnly> },
        { path: 'export', element: <RoleOnly role="admin"><ExportPage /></RoleOnly> },
        { path: 'export/templates/:template', element: <RoleOnly role="admin"><ExportTemplatePage /></RoleOnly> },
        { path: 'audit', element: <RoleOnly role="admin"><AuditLogPage /></RoleOnly> },
        { path: 'people', element: <RoleOnly role="admin"><PeoplePage /></RoleOnly> },
        { path: 'conflicts', element: <RoleOnly role="admin"><ConflictsPage /></RoleOnly> },
        { path: 'review-form', element: <RoleOnly role="admin"><ReviewFormPage /></RoleOnly> },
        { path: 'bins', element: <RoleOnly role="admin"><BinsPage /></RoleOnly> },
        { path: 'checklist', element: <RoleOnly role="admin"><ChecklistRulesPage /></RoleOnly> },
        { path: 'retention', element: <RoleOnly role="admin"><RetentionPage /></RoleOnly> },
        { path: 'duplicates', element: <DuplicatesPage /> },
        { path: '*', element: <Navigate to={STAFF_HOME} replace /> },
      ],
    },
  ]);
}
