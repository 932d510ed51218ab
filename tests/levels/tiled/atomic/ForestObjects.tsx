<?xml version="1.0" encoding="UTF-8"?>
<tileset name="ForestObjects" tilewidth="64" tileheight="64">
 <image source="ForestObjects.png" width="128" height="577"/>
 <tile id="8">
  <objectgroup draworder="index">
   <object x="1.67936" y="1.95925" width="60.1769" height="60.4568"/>
  </objectgroup>
 </tile>
</tileset>
