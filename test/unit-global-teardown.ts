import { leaveRunTempFolder } from './run-temp-folder';

export default function globalTeardown(): void {
  leaveRunTempFolder();
}
