import { enterRunTempFolder } from './run-temp-folder';

export default function globalSetup(): void {
  enterRunTempFolder();
}
