// Loaded before every unit test file that shares its worker's modules with the files before it
// (vitest.config.ts, project "unit").
import { resetProcess } from "./reset-process";

resetProcess("unit.workerEnv");
