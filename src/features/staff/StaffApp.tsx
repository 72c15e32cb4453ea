import { Navigate, useRoutes } from 'react-router-dom';
import { AdminOnly, SignedInConsole } from './SignedInConsole';
import { StaffLogin } from './StaffLogin';
import { StaffSetup } from './StaffSetup';
import { ApplicationsList } from './ApplicationsList';
import { ApplicationView } from './ApplicationView';
import { Dashboard } from './Dashboard';
import { ExportPage } from './ExportPage';
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
        { path: 'export', element: <AdminOnly><ExportPage /></AdminOnly> },
        { path: 'audit', element: <AdminOnly><AuditLogPage /></AdminOnly> },
        { path: 'people', element: <AdminOnly><PeoplePage /></AdminOnly> },
        { path: '*', element: <Navigate to={STAFF_HOME} replace /> },
      ],
    },
  ]);
}
