import DataModel
